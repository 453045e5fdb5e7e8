// unit tests

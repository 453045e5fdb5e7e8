//! multer's multipart parser (busboy's state machine): never panics, holds
//! back no more than a boundary's length between chunks, and passes on no
//! more file bytes than the body held, whatever the chunk size.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    webfw::multer::__fuzz_parse(data);
});

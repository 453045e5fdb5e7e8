//! [`ShutdownHandle`]: what starts a server's graceful shutdown from
//! another task, or from a signal ([`signals`](super::signals)).

use tokio::sync::watch;

/// Triggers a [`Server`](super::Server)'s graceful shutdown; clone it for every task that
/// may stop the server.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
/// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
/// let handle: webfw::ShutdownHandle = server.shutdown_handle();
/// handle.clone().shutdown();
/// server.wait().await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct ShutdownHandle(pub(super) watch::Sender<bool>);

impl ShutdownHandle {
    /// Starts the graceful shutdown.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
    /// server.shutdown_handle().shutdown();
    /// server.wait().await;
    /// # Ok(()) }
    /// ```
    pub fn shutdown(&self) {
        let _ = self.0.send(true);
    }
}

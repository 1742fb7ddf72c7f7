//! Starting `tegula serve` from a test: a child process on a free loopback port, its URL read
//! from the first line it prints, stopped (Ctrl-C, then killed) when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running `tegula serve`.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
}

impl Server {
    /// Start `tegula serve ARGS` and wait (at most 30 s) for its URL.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tegula"))
            .arg("serve")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tegula serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let url = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_default();
        let url = url.trim().to_string();
        let server = Server { child, url };
        assert!(
            server.url.starts_with("http://127.0.0.1:"),
            "no URL printed: `{}`",
            server.url
        );
        server
    }

    /// Send Ctrl-C (SIGINT) and wait at most `limit` for the exit; the exit code.
    pub fn interrupt(&mut self, limit: Duration) -> Option<i32> {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-INT", &pid]).status();
        let deadline = std::time::Instant::now() + limit;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.interrupt(Duration::from_secs(5));
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

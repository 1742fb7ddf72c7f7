//! `tegula serve` as a command: it prints its URL, binds to loopback, stops cleanly on Ctrl-C
//! (exit 0), and refuses bad arguments with a message and exit 2.

use std::time::Duration;

mod common;
mod serve_support;
use common::{assert_exit, tegula};
use serve_support::Server;

#[test]
fn it_prints_its_url_and_stops_on_ctrl_c() {
    let mut server = Server::start(&["--port", "0"]);
    let port: u16 = server
        .url
        .trim_start_matches("http://127.0.0.1:")
        .trim_end_matches('/')
        .parse()
        .expect("a port in the URL");
    assert!(port > 0);
    // Bound to 127.0.0.1 only: the port is taken there, so a second server cannot have it.
    let out = tegula(&["serve", "--port", &port.to_string()]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on 127.0.0.1"), "{err}");
    assert_eq!(
        server.interrupt(Duration::from_secs(10)),
        Some(0),
        "Ctrl-C stops it cleanly"
    );
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let out = tegula(&["serve", "--data", "no/such/folder"]);
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no/such/folder"), "{err}");
    let out = tegula(&["serve", "--watch", "Cargo.toml"]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a folder"));
    let out = tegula(&["serve", "--port", "70000"]);
    assert_exit(&out, 2);
    let out = tegula(&["serve", "--help"]);
    assert_exit(&out, 0);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("Exit status") && help.contains("--watch"),
        "{help}"
    );
}

//! `lsm`: the engine as a native command-line tool.

use std::process::ExitCode;

fn usage() -> &'static str {
    "usage: lsm <command>\n\ncommands:\n  version    print the engine version\n"
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("version") => {
            println!("lsm {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        _ => {
            eprint!("{}", usage());
            ExitCode::from(2)
        }
    }
}

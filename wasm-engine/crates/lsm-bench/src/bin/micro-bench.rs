//! `micro-bench`: the kernels timed natively by the loop the wasm build's `micro_bench` runs,
//! printed as one JSON array (`npm run bench` puts the two side by side).
//!
//! Usage: `micro-bench [--only name,name] [--samples N] [--sample-ms MS]`

use std::process::ExitCode;

use lsm_bench::{Plan, measure_selected};

fn run() -> Result<String, String> {
    let mut plan = Plan::default();
    let mut only = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--only" => only = value()?,
            "--samples" => plan.samples = value()?.parse().map_err(|e| format!("--samples: {e}"))?,
            "--sample-ms" => {
                plan.sample_ns = value()?.parse::<f64>().map_err(|e| format!("--sample-ms: {e}"))? * 1e6;
            }
            _ => {
                return Err(format!(
                    "unknown argument {arg}; usage: micro-bench [--only name,name] [--samples N] [--sample-ms MS]"
                ));
            }
        }
    }
    let measured = measure_selected(&only, &plan).map_err(|e| e.to_string())?;
    serde_json::to_string(&measured).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    match run() {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("micro-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

//! `cargo bench -p lsm-bench`: the engine's hot paths under criterion, natively, with their
//! throughput in elements per second. The kernels are `lsm_bench::KERNELS` (the same ones the
//! wasm build times); a modest sample count keeps the whole run to a minute or two on 2 cores.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn hot_paths(c: &mut Criterion) {
    let mut group = c.benchmark_group("hot_paths");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for spec in lsm_bench::KERNELS {
        let mut kernel = (spec.setup)(lsm_bench::SEED).expect("kernel setup");
        group.throughput(Throughput::Elements(spec.elements));
        group.bench_function(spec.name, |b| b.iter(|| kernel.run().expect("kernel run")));
    }
    group.finish();
}

criterion_group!(benches, hot_paths);
criterion_main!(benches);

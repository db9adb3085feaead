//! A plain benchmark: how fast a 10⁴-point sweep and full analyses run.
//!
//! Run with `cargo run --release -p roofline-core --example bench_sweep`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use roofline_core::hardware::preset;
use roofline_core::sweep::{log_space, Sweep};
use roofline_core::{analyze, critical_size, CoreError, Scenario, Shortcut};

/// Runs `f` repeatedly for at least `min` and returns (runs, elapsed).
fn time<F: FnMut()>(min: Duration, mut f: F) -> (u64, Duration) {
    let start = Instant::now();
    let mut runs = 0u64;
    while start.elapsed() < min {
        f();
        runs += 1;
    }
    (runs, start.elapsed())
}

fn main() -> Result<(), CoreError> {
    let chip = preset("v5e").ok_or_else(|| CoreError::Invalid("no v5e preset".into()))?;
    let scenario = Scenario::shortcut(chip, Shortcut::MixedMatmul);
    let min = Duration::from_millis(500);

    let sweep = Sweep::new(&scenario, "B")?;
    let xs = log_space(1.0, 1e5, 10_000);
    let (runs, took) = time(min, || {
        black_box(sweep.points(black_box(&xs)));
    });
    let per_sweep = took.as_secs_f64() / runs as f64;
    println!(
        "sweep of {} points: {:.1} µs each, {:.3e} points/s",
        xs.len(),
        per_sweep * 1e6,
        xs.len() as f64 / per_sweep
    );

    let (runs, took) = time(min, || {
        black_box(Sweep::new(black_box(&scenario), "B").ok());
    });
    println!(
        "compiling a sweep: {:.2} µs each",
        took.as_secs_f64() / runs as f64 * 1e6
    );

    let mut s = scenario.clone();
    let mut b = 1.0;
    let (runs, took) = time(min, || {
        b = if b > 1e5 { 1.0 } else { b * 1.01 };
        s.sizes.insert("B".to_string(), b);
        black_box(analyze(black_box(&s)).ok());
    });
    let per = took.as_secs_f64() / runs as f64;
    println!(
        "analyze: {:.2} µs each, {:.3e} calls/s",
        per * 1e6,
        1.0 / per
    );

    let (runs, took) = time(min, || {
        black_box(critical_size(black_box(&scenario), "B").ok());
    });
    println!(
        "critical_size: {:.2} µs each",
        took.as_secs_f64() / runs as f64 * 1e6
    );
    Ok(())
}

//! Nsight Compute's printed text: its report as `ncu` prints it without
//! `--csv` (each kernel's sections as tables of `Metric Name`,
//! `Metric Unit`, `Metric Value`) and its summary, `--print-summary
//! per-kernel` (`Minimum`, `Maximum`, `Average` over each kernel's
//! invocations). Both are tables drawn with spaces and dashes for people to
//! read, not an export: they are recognised so that the message says how
//! to export CSV instead, not that no column gives a time.
//!
//! The summary's shape, as `ncu` prints it (Nsight Compute 2023 to 2025):
//!
//! ```text
//!   kernel(int) (16384, 1, 1)x(512, 1, 1), Invocations 300
//!     Section: Command line profiler metrics
//!     ----------------------- ----------- ------- ------- -------
//!     Metric Name             Metric Unit Minimum Maximum Average
//!     ----------------------- ----------- ------- ------- -------
//!     dram__bytes.sum               Mbyte  118.45  118.45  118.45
//! ```

use super::ADVICE;

/// How to export a report already saved instead of profiling again.
const FROM_REPORT: &str =
    "from a saved report: ncu --import report.ncu-rep --csv --page raw > kernels.csv";

/// The message for `text` when it is Nsight Compute's printed text (a
/// `Metric Name` and `Metric Unit` header line not in quotes, under a
/// `Section:` line); `None` when it is not.
pub(in crate::points::read) fn printed(text: &str) -> Option<String> {
    let mut section = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("Section: ") {
            section = true;
            continue;
        }
        if !section || !line.starts_with("Metric Name") || line.contains('"') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let has = |w: &str| words.contains(&w);
        if !line.contains("Metric Unit") {
            continue;
        }
        if has("Minimum") && has("Maximum") && has("Average") {
            return Some(format!(
                "This is Nsight Compute's printed summary (--print-summary per-kernel): a text table \
                 of each kernel's minimum, maximum and average, not an export the panel reads. Export \
                 the kernels as CSV instead, without --print-summary: {ADVICE}; or {FROM_REPORT}."
            ));
        }
        if has("Value") {
            return Some(format!(
                "This is Nsight Compute's printed report (its text tables), not an export the panel \
                 reads. Export the kernels as CSV instead: {ADVICE}; or {FROM_REPORT}."
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::printed;

    /// `ncu --print-summary per-kernel` as it prints (the shape of a real
    /// H100 run's summary, kernels and values our own).
    const SUMMARY: &str = "\
==PROF== Disconnected from process 4242
[4242] python3.11@127.0.0.1
  Device 0, CC 9.0
    void matmul_bf16<128, 128, 64>(const __nv_bfloat16 *, __nv_bfloat16 *, int) (256, 1, 1)x(1024, 1, 1), Invocations 3
      Section: Command line profiler metrics
      ---------------------------------------------------- ----------- -------------- -------------- --------------
      Metric Name                                          Metric Unit        Minimum        Maximum        Average
      ---------------------------------------------------- ----------- -------------- -------------- --------------
      dram__bytes.sum                                            Mbyte         118.45         118.45         118.45
      gpu__time_duration.sum                                   usecond         196.21         196.52         196.38
      sm__ops_path_tensor_src_bf16_dst_fp32.sum                        137,438,953,472 137,438,953,472 137,438,953,472
      ---------------------------------------------------- ----------- -------------- -------------- --------------
";

    #[test]
    fn the_summary_says_to_export_csv() {
        let m = printed(SUMMARY).unwrap();
        assert!(
            m.starts_with("This is Nsight Compute's printed summary (--print-summary per-kernel)"),
            "{m}"
        );
        assert!(
            m.contains("ncu --csv --page raw --metrics 'gpu__time_duration.sum,"),
            "{m}"
        );
        assert!(
            m.contains("ncu --import report.ncu-rep --csv --page raw > kernels.csv"),
            "{m}"
        );
        assert!(!m.contains("No column gives"));
    }

    #[test]
    fn the_printed_report_says_to_export_csv() {
        let details = "  k(int) (1, 1, 1)x(32, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n    Section: GPU Speed Of Light Throughput\n    ----------------------- ----------- ------------\n    Metric Name             Metric Unit Metric Value\n    ----------------------- ----------- ------------\n    Duration                    usecond         2.53\n";
        let m = printed(details).unwrap();
        assert!(
            m.starts_with("This is Nsight Compute's printed report"),
            "{m}"
        );
    }

    #[test]
    fn csv_and_other_tables_are_not_printed_text() {
        assert!(printed("name,flops,bytes,time_ms\nmm,1e12,1e9,10\n").is_none());
        assert!(printed("\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n").is_none());
        assert!(printed("Metric Name Metric Unit Minimum Maximum Average\n").is_none());
        assert!(printed("").is_none());
    }
}

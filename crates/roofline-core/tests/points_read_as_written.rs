//! Columns read as people write them (#40): a header naming the kernel
//! beats one naming the process; launch dimensions and profilers' metric
//! names are never sizes or operations; a rate-looking FLOP header is read
//! as a rate when the table has no time; a single JSON object is a list of
//! one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_close, fields, rd};
use roofline_core::points::Field;

#[test]
fn the_kernels_name_beats_the_process_name() {
    let r = rd("Process Name,Kernel Name,flops,bytes,time_ms\npython3.10,gemm_bf16,1e12,1e9,2\n");
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(&*r.kernels[0].name, "gemm_bf16");
    assert_eq!(fields(&r)[..2], [Field::Ignore, Field::Name]);
    // With no kernel column, the process's name is still a name.
    let r = rd("Process Name,flops,bytes,time_ms\npython3.10,1e12,1e9,2\n");
    assert_eq!(&*r.kernels[0].name, "python3.10");
}

#[test]
fn launch_dimensions_and_metric_names_are_not_sizes_or_operations() {
    let r = rd(concat!(
        "Kernel Name,Block Size,Grid Size,sm__ops_path_tensor_src_fp16.sum,flops,bytes,time_ms\n",
        "gemm,\"(256, 1, 1)\",\"(1024, 1, 1)\",123,1e12,1e9,2\n",
    ));
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(
        fields(&r),
        [
            Field::Name,
            Field::Ignore,
            Field::Ignore,
            Field::Ignore,
            Field::Flops,
            Field::Bytes,
            Field::Time
        ]
    );
    assert_close(r.kernels[0].rate, 5e14);
}

#[test]
fn a_rate_looking_header_is_a_rate_when_there_is_no_time() {
    // 650 TFLOPS at intensity 300: a rate, as everyone writes it.
    let r = rd("kernel,TFLOPS,intensity\ngemm,650,300\n");
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(fields(&r)[1], Field::Rate);
    assert_close(r.kernels[0].rate, 650e12);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("'TFLOPS' is read as FLOP/s")),
        "{:?}",
        r.notes
    );
    // With a time column, the same header counts FLOPs (TFLOP).
    let r = rd("kernel,TFLOPS,bytes,time_ms\ngemm,1,1e9,2\n");
    assert_eq!(fields(&r)[1], Field::Flops);
    assert_close(r.kernels[0].rate, 1e12 / 2e-3);
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    // Chosen by hand, it stays what the user chose.
    let r = roofline_core::points::read::read(
        "kernel,TFLOPS,intensity\ngemm,650,300\n",
        &[("TFLOPS".to_string(), Field::Flops)],
    );
    assert_eq!(r.columns[1].field, Field::Flops);
}

#[test]
fn a_single_json_object_is_a_list_of_one() {
    let r = rd(r#"{"name": "gemm", "flops": 1e12, "bytes": 1e9, "time_ms": 2}"#);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.kernels.len(), 1);
    assert_eq!(&*r.kernels[0].name, "gemm");
    assert!(r.notes.iter().any(|n| n.contains("list of one")));
    // A bad value in it is that item's error.
    let r = rd(r#"{"name": "gemm", "flops": -1, "bytes": 1e9, "time_ms": 2}"#);
    assert_eq!(r.errors.len(), 1);
    assert!(r.errors[0].text().starts_with("item 1:"), "{:?}", r.errors);
}

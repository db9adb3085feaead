//! Measured kernels under the roof: placement against hand-derived numbers,
//! the table's order, the link's compact form, the CSV export read back,
//! and the example profile.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use roofline_core::calc::{evaluate, CalcInput};
use roofline_core::dtype::DType;
use roofline_core::points::compact::{self, LINK_MAX_POINTS};
use roofline_core::points::table::{self, SortKey};
use roofline_core::points::Against;
use roofline_core::points::{example, export, place, read, At, Binding, Kernel, Roof};

/// TPU v5e's roof at bf16 against HBM (the catalogue's Google figures).
fn v5e() -> Roof {
    Roof {
        peak: 1.97e14,
        peak_key: "bf16".into(),
        bandwidth: 8.2e11,
        line_key: "hbm".into(),
        line_name: "HBM".into(),
        peaks: vec![(DType::Bf16, 1.97e14), (DType::Int8, 3.94e14)],
    }
}

fn kernel(name: &str, intensity: f64, rate: f64, time: Option<f64>) -> Kernel {
    Kernel {
        name: name.into(),
        intensity,
        rate,
        time,
        predicted: None,
        dtype: None,
    }
}

fn close(a: f64, b: f64) -> bool {
    ((a - b) / b).abs() < 1e-12
}

#[test]
fn the_default_calculator_gives_the_v5e_roof() {
    let v = evaluate(&CalcInput::default());
    assert_eq!(Roof::for_view(&v), Some(v5e()));
}

#[test]
fn placement_matches_hand_derivation() {
    let r = v5e();
    // Intensity 100 < 240.2: the HBM line binds; the roof there is
    // 100 × 8.2e11 = 8.2e13; 4.1e13 is half of it. 1e12 FLOPs take at
    // least 1e12 / 8.2e13 = 12.195 ms; measured 24.39 ms, so 12.195 ms
    // would be saved.
    let t = 1e12 / 4.1e13;
    let p = place(&kernel("a", 100.0, 4.1e13, Some(t)), &r);
    assert_eq!(p.binding, Binding::Memory);
    assert_eq!(p.binding_key(&r), "hbm");
    assert!(close(p.roof, 8.2e13));
    assert!(close(p.fraction, 0.5));
    assert!(close(p.lower_bound.unwrap(), 1e12 / 8.2e13));
    assert!(close(p.saved.unwrap(), t - 1e12 / 8.2e13));
    assert!(!p.above());
    // The lower bound is max(FLOPs/peak, bytes/bandwidth).
    let bytes = 1e12 / 100.0;
    assert!(close(
        p.lower_bound.unwrap(),
        (1e12 / 1.97e14f64).max(bytes / 8.2e11)
    ));

    // Intensity 1000 > 240.2: the peak binds.
    let p = place(&kernel("b", 1000.0, 0.75 * 1.97e14, None), &r);
    assert_eq!(p.binding, Binding::Compute);
    assert_eq!(p.binding_key(&r), "bf16");
    assert!(close(p.fraction, 0.75));
    assert_eq!(p.lower_bound, None);

    // Twice the peak: above the roof.
    let p = place(&kernel("c", 1000.0, 3.94e14, Some(1.0)), &r);
    assert!(p.above());
    assert!(p.saved.unwrap() < 0.0);
    let row = table::row(0, &p, &r);
    assert!(row.above);
    assert_eq!(row.saved, "none");
    assert_eq!(row.percent, "200%");

    // Exactly at the critical intensity the peak binds (the bend).
    let p = place(&kernel("d", r.critical(), 1e14, None), &r);
    assert_eq!(p.binding, Binding::Compute);
}

#[test]
fn readout_and_row_say_what_binds_and_the_times() {
    let r = v5e();
    let p = place(&kernel("half", 100.0, 4.1e13, Some(1e12 / 4.1e13)), &r);
    assert_eq!(
        table::readout(&p, &r),
        "half: 41 TFLOP/s at 100 FLOPs/byte; the roof there is 82 TFLOP/s (HBM bandwidth binds), 50% of it reached; measured 24.4 ms, at least 12.2 ms at the roof"
    );
    let row = table::row(3, &p, &r);
    assert_eq!(row.index, 3);
    assert_eq!(row.binding, "HBM bandwidth");
    assert_eq!(row.time, "24.4 ms");
    assert_eq!(row.lower_bound, "12.2 ms");
    assert_eq!(row.saved, "12.2 ms");
    // The unrounded values: FLOPs = rate × time, bytes = FLOPs ÷ intensity.
    let f: f64 = row.values[0].parse().unwrap();
    assert!(close(f, 1e12) && close(row.values[1].parse().unwrap(), 1e10));
    assert_eq!(row.values[2], (1e12 / 4.1e13).to_string());
    let q = place(&kernel("nt", 1000.0, 1e14, None), &r);
    let row = table::row(0, &q, &r);
    assert_eq!((row.time.as_str(), row.saved.as_str()), ("—", "—"));
    assert_eq!(row.values, [String::new(), String::new(), String::new()]);
    assert_eq!(row.binding, "bf16 peak");
}

#[test]
fn the_table_sorts_each_way_with_missing_values_last() {
    let r = v5e();
    let ks = [
        kernel("a", 10.0, 4e12, Some(1.0)),
        kernel("b", 1000.0, 1e14, None),
        kernel("c", 50.0, 1e13, Some(3.0)),
    ];
    let placed: Vec<_> = ks.iter().map(|k| place(k, &r)).collect();
    assert_eq!(table::order(&placed, SortKey::Intensity, false), [0, 2, 1]);
    assert_eq!(table::order(&placed, SortKey::Intensity, true), [1, 2, 0]);
    // Time: b has none, so it is last both ways.
    assert_eq!(table::order(&placed, SortKey::Time, false), [0, 2, 1]);
    assert_eq!(table::order(&placed, SortKey::Time, true), [2, 0, 1]);
    // Fractions: a 4e12/8.2e12 = 0.488, b 1e14/1.97e14 = 0.508, c 1e13/4.1e13 = 0.244.
    assert_eq!(table::order(&placed, SortKey::Fraction, false), [2, 0, 1]);
    for k in SortKey::ALL {
        assert_eq!(SortKey::from_key(k.key()), Some(k));
    }
}

#[test]
fn the_link_form_round_trips_names_with_separators() {
    let ks = vec![
        kernel("a:b,c\\d", 100.0, 4.1e13, Some(0.024390243902439025)),
        kernel("", 0.1, 1.0, None),
        kernel("<script>alert(1)</script>", 3.0, 1e12, Some(1e-6)),
    ];
    let text = compact::encode(&ks).unwrap();
    assert_eq!(
        text,
        "a\\:b\\,c\\\\d:100:4.1e13:0.024390243902439025,:0.1:1,<script>alert(1)</script>:3:1e12:1e-6"
    );
    let (back, errors) = compact::decode(&text);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(back, ks);
}

#[test]
fn the_link_form_has_limits_and_says_what_is_wrong() {
    let many: Vec<Kernel> = (0..=LINK_MAX_POINTS)
        .map(|i| kernel(&format!("k{i}"), 1.0 + i as f64, 1e12, None))
        .collect();
    assert_eq!(compact::encode(&many), None);
    assert!(compact::encode(&many[..LINK_MAX_POINTS]).is_some());
    // A long name is clipped to 40 characters.
    let long = "x".repeat(100);
    let t = compact::encode(&[kernel(&long, 1.0, 1.0, None)]).unwrap();
    let (k, _) = compact::decode(&t);
    assert_eq!(k[0].name.chars().count(), 40);

    for bad in [
        "a:x:1",
        "a:-1:5",
        "a:1:0",
        "a:1:5:NaN",
        "a:1:5:-2",
        "a:1",
        "a:1:2:3:4",
        "a:inf:1",
    ] {
        let (k, e) = compact::decode(bad);
        assert!(k.is_empty(), "{bad}");
        assert_eq!(e.len(), 1, "{bad}");
        assert_eq!(e[0].at, At::Item(1));
        assert!(!e[0].text().contains("NaN") && !e[0].text().contains("inf,"));
    }
    let (k, e) = compact::decode("good:100:4.1e13,bad:x:1,neg:-1:5");
    assert_eq!(k.len(), 1);
    assert_eq!(
        e.iter().map(|e| e.at).collect::<Vec<_>>(),
        [At::Item(2), At::Item(3)]
    );
    let (k, e) = compact::decode(&"a:1:1,".repeat(5000));
    assert!(k.is_empty());
    assert_eq!(e[0].at, At::Input);
    // More items than a link carries: the first ones, and a notice.
    let text = vec!["a:1:1"; LINK_MAX_POINTS + 3].join(",");
    let (k, e) = compact::decode(&text);
    assert_eq!(k.len(), LINK_MAX_POINTS);
    assert_eq!(e.len(), 1);
}

#[test]
fn the_export_reads_back_as_the_same_kernels() {
    let r = v5e();
    let ks = vec![
        kernel("half, \"quoted\"", 100.0, 4.1e13, Some(1e12 / 4.1e13)),
        kernel("no time", 1000.0, 1e14, None),
    ];
    let csv = export::csv(&ks, &r);
    assert!(csv.starts_with(&export::HEADER.join(",")));
    let reading = read(&csv, &[]);
    assert!(reading.errors.is_empty(), "{:?}", reading.errors);
    assert_eq!(reading.kernels.len(), 2);
    for (a, b) in reading.kernels.iter().zip(&ks) {
        assert_eq!(a.name, b.name);
        assert!(
            close(a.intensity, b.intensity),
            "{} {}",
            a.intensity,
            b.intensity
        );
        assert!(close(a.rate, b.rate));
        match (a.time, b.time) {
            (Some(x), Some(y)) => assert!(close(x, y)),
            (None, None) => {}
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn the_example_reaches_the_efficiencies_it_was_built_with() {
    let r = v5e();
    let text = example::profile(&r);
    let reading = read(&text, &[]);
    assert!(reading.errors.is_empty(), "{:?}", reading.errors);
    assert_eq!(reading.kernels.len(), 6);
    let want = [0.78, 0.7, 0.85, 0.6, 0.9, 0.35];
    for (k, eff) in reading.kernels.iter().zip(want) {
        assert!(k.name.starts_with("example: "));
        let f = place(k, &r).fraction;
        // Times are printed to three significant digits.
        assert!((f / eff - 1.0).abs() < 0.006, "{}: {f} vs {eff}", k.name);
    }
    // Both sides of the bend.
    let bindings: Vec<_> = reading
        .kernels
        .iter()
        .map(|k| place(k, &r).binding)
        .collect();
    assert!(bindings.contains(&Binding::Memory) && bindings.contains(&Binding::Compute));
}

proptest! {
    #[test]
    fn any_kernels_round_trip_through_the_link(
        ks in prop::collection::vec(
            ("[ -~é→]{0,30}", 1e-6f64..1e9, 1e-3f64..1e19, prop::option::of(1e-12f64..1e6)),
            0..LINK_MAX_POINTS,
        )
    ) {
        let ks: Vec<Kernel> = ks.into_iter().map(|(n, i, r, t)| kernel(&n, i, r, t)).collect();
        let text = compact::encode(&ks).unwrap();
        let (back, errors) = compact::decode(&text);
        prop_assert!(errors.is_empty());
        prop_assert_eq!(back, ks);
    }

    #[test]
    fn any_link_text_decodes_without_panicking(s in "[ -~]{0,200}") {
        let (k, e) = compact::decode(&s);
        prop_assert!(k.len() <= LINK_MAX_POINTS);
        for e in e {
            prop_assert!(!e.text().contains("NaN"));
        }
    }

    #[test]
    fn the_tables_first_rows_are_the_first_of_a_full_stable_sort(
        ks in prop::collection::vec(
            // Few distinct values, so that ties (kept in input order) are common.
            (1u8..6, 1u8..6, prop::option::of(1u8..4)),
            0..60,
        ),
        n in 0usize..70,
        desc in any::<bool>(),
    ) {
        let r = v5e();
        let ks: Vec<Kernel> = ks
            .into_iter()
            .map(|(i, a, t)| kernel("k", 10.0 * f64::from(i), 1e12 * f64::from(a), t.map(f64::from)))
            .collect();
        let placed: Vec<_> = ks.iter().map(|k| place(k, &r)).collect();
        for key in SortKey::ALL {
            // The reference: a stable sort of every index by the value,
            // missing values last either way.
            let value = |i: usize| match key {
                SortKey::Fraction => Some(placed[i].fraction),
                SortKey::Time => placed[i].kernel.time,
                SortKey::Intensity => Some(placed[i].kernel.intensity),
                SortKey::Saved => placed[i].saved,
            };
            let mut want: Vec<usize> = (0..placed.len()).collect();
            want.sort_by(|&a, &b| match (value(a), value(b)) {
                (Some(x), Some(y)) if desc => y.partial_cmp(&x).unwrap(),
                (Some(x), Some(y)) => x.partial_cmp(&y).unwrap(),
                (a, b) => b.is_some().cmp(&a.is_some()),
            });
            want.truncate(n);
            prop_assert_eq!(table::top(&placed, key, desc, n), want);
        }
    }
}

#[test]
fn a_prediction_sits_at_the_roof_travels_in_the_link_and_the_file() {
    let r = v5e();
    // 1e12 FLOPs at intensity 100 (HBM binds): at the roof 100 × 8.2e11
    // FLOP/s, so it would take 1e12 / 8.2e13 s.
    let k = Kernel::prediction("softmax".into(), 100.0, 1e12);
    let p = place(&k, &r);
    assert!(close(p.rate, 8.2e13) && close(p.fraction, 1.0));
    assert_eq!((p.binding, p.saved), (Binding::Memory, None));
    assert!(close(p.lower_bound.unwrap(), 1e12 / 8.2e13));
    assert!(!p.above());
    let row = table::row(0, &p, &r);
    assert!(row.predicted);
    assert_eq!(
        (row.attained.as_str(), row.percent.as_str()),
        ("predicted", "—")
    );
    assert_eq!(row.values[2], "");
    assert!(close(row.values[0].parse().unwrap(), 1e12));
    assert!(table::readout(&p, &r).contains("predicted"));
    // Sorted by the share of the roof, it comes last (it has none yet).
    let m = place(&kernel("m", 100.0, 4.1e13, Some(1.0)), &r);
    assert_eq!(
        table::order(&[p.clone(), m], SortKey::Fraction, true),
        [1, 0]
    );
    // The link: `name:intensity:~flops`, read back the same.
    let text = compact::encode(std::slice::from_ref(&k)).unwrap();
    assert_eq!(text, "softmax:100:~1e12");
    let (back, errors) = compact::decode(&text);
    assert!(errors.is_empty());
    assert_eq!(back, std::slice::from_ref(&k));
    assert!(!compact::decode("x:100:~-1").1.is_empty());
    // The saved file reads back as the same prediction.
    let back = read::read(&export::csv(std::slice::from_ref(&k), &r), &[]);
    assert!(back.errors.is_empty(), "{:?}", back.errors);
    assert_eq!(back.kernels[0].predicted, Some(1e12));
    assert!(close(back.kernels[0].intensity, 100.0));
    // Timed, it is measured.
    let m = k.timed(1e12 / 4.1e13).unwrap();
    assert!(close(place(&m, &r).fraction, 0.5));
}

#[test]
fn a_typed_time_reads_its_unit() {
    use roofline_core::points::units::typed_time;
    assert!(close(typed_time("1.2 ms").unwrap(), 1.2e-3));
    assert!(close(typed_time(" 350us ").unwrap(), 350e-6));
    assert!(close(typed_time("2").unwrap(), 2.0));
    assert!(typed_time("fast").unwrap_err().starts_with("Not a time"));
    assert!(typed_time("3 GB")
        .unwrap_err()
        .starts_with("Not a time unit"));
    for bad in ["0", "-1 ms", "inf", "NaN", "1e9 s"] {
        let e = typed_time(bad).unwrap_err();
        assert!(
            !e.to_lowercase().contains("nan") && !e.contains("inf"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn totals_and_groups_summarise_a_profile() {
    let r = v5e();
    // Two launches of one kernel and one other; a prediction is not timed.
    let ks = [
        kernel("gemm #1", 100.0, 4.1e13, Some(2e-3)),
        kernel("gemm #2", 100.0, 8.2e13, Some(1e-3)),
        kernel("norm", 1.0, 4.1e11, Some(1e-3)),
        Kernel::prediction("softmax".into(), 1.0, 1e9),
    ];
    let placed: Vec<_> = ks.iter().map(|k| place(k, &r)).collect();
    let t = table::totals(&placed);
    assert_eq!((t.measured, t.predicted), (3, 1));
    assert!(close(t.time, 4e-3));
    // At the roof: gemm #1 and #2 each do 8.2e10 FLOPs at 8.2e13 FLOP/s
    // (1 ms each); norm does 4.1e8 at 8.2e11 (0.5 ms).
    assert!(close(t.at_roof, 2.5e-3));
    assert!(close(t.saved(), 1.5e-3));
    let text = t.text().unwrap();
    assert!(
        text.starts_with("3 kernels measured: 4 ms in all"),
        "{text}"
    );
    assert!(text.contains("1 prediction not counted"), "{text}");
    let g = table::groups(&placed, 10);
    assert_eq!(g.len(), 2);
    assert_eq!((g[0].name.as_str(), g[0].count), ("gemm", 2));
    assert!(close(g[0].time, 3e-3) && close(g[0].share, 0.75));
    assert_eq!((g[1].name.as_str(), g[1].count), ("norm", 1));
    assert_eq!(table::groups(&placed, 1).len(), 1);
    assert_eq!(table::totals(&[]).text(), None);
}

#[test]
fn a_kernel_that_names_its_data_type_is_read_against_that_peak() {
    // An int8 matmul at 300 TFLOP/s, intensity 1000: over v5e's bf16 roof
    // (1.97e14), under its int8 one (3.94e14).
    let text =
        "name,flops,bytes,time_ms,dtype\nq,3e11,3e8,1,int8\nb,3e11,3e8,1,\nf,3e11,3e8,1,fp8\n";
    let r = read(text, &[]);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.columns[4].field, roofline_core::points::Field::Dtype);
    let roof = v5e();
    let placed: Vec<_> = r.kernels.iter().map(|k| place(k, &roof)).collect();
    assert_eq!(placed[0].against, Against::Own(DType::Int8));
    assert!(close(placed[0].roof, 3.94e14));
    assert!(close(placed[0].fraction, 3e14 / 3.94e14));
    assert_eq!(placed[0].binding_key(&roof), "int8");
    // No type: the roof drawn, and above it.
    assert_eq!(placed[1].against, Against::Drawn);
    assert!(placed[1].above());
    // A type the chip has no peak for: the roof drawn, said so.
    assert_eq!(placed[2].against, Against::Missing(DType::Fp8));
    assert!(close(placed[2].roof, 1.97e14));
    // Its critical intensity is its own: int8 at 400 FLOPs/byte is
    // memory-bound (3.94e14 / 8.2e11 = 480.5), bf16 is not (240.2).
    let k = |d| Kernel {
        dtype: d,
        ..kernel("k", 400.0, 1e14, Some(1e-3))
    };
    assert_eq!(place(&k(Some(DType::Int8)), &roof).binding, Binding::Memory);
    assert_eq!(place(&k(None), &roof).binding, Binding::Compute);
    // The link and the export keep the type.
    let link = compact::encode(&r.kernels).unwrap();
    assert!(link.contains(":int8,") && link.ends_with(":fp8"), "{link}");
    assert_eq!(compact::decode(&link).0, r.kernels);
    let csv = export::csv(&r.kernels, &roof);
    assert_eq!(read(&csv, &[]).kernels, r.kernels);
    // A cell that is no data type is a row error that says so.
    let bad = read(
        "name,flops,bytes,time_ms,precision\nx,1e9,1e6,1,fp13\n",
        &[],
    );
    assert_eq!(bad.errors.len(), 1);
    assert!(
        bad.errors[0].text().contains("'fp13' is not a data type"),
        "{}",
        bad.errors[0].text()
    );
    // A prediction keeps its type in the link.
    let p = Kernel {
        dtype: Some(DType::Int8),
        ..Kernel::prediction("p".into(), 10.0, 1e9)
    };
    assert_eq!(
        compact::encode(std::slice::from_ref(&p)).unwrap(),
        "p:10:~1e9:int8"
    );
    assert_eq!(compact::decode("p:10:~1e9:int8").0, vec![p]);
    assert!(!compact::decode("p:10:1e9:3:int9").1.is_empty());
}

#[test]
fn a_tflops_column_whose_counts_put_kernels_far_above_the_roof_is_a_rate() {
    use roofline_core::points::read::rate_by_roof;
    use roofline_core::points::Field;
    // 650 "TFLOPS" in 1 ms: as a count 6.5e17 FLOP/s, 3,300 times v5e's
    // roof; as a rate, 650 TFLOP/s (above it, but a plausible misreading
    // of the chip, not of the column).
    let text = "name,TFLOPS,bytes,time_ms\na,650,1e9,1\nb,600,1e9,2\nc,700,2e9,1\n";
    let r = read(text, &[]);
    assert_eq!(r.columns[1].field, Field::Flops);
    let roof = v5e();
    let got = rate_by_roof(&r, &[], &roof).expect("read as a rate");
    assert_eq!(got.choice, ("TFLOPS".to_string(), Field::Rate));
    assert!(
        got.note.starts_with("'TFLOPS' is read as FLOP/s"),
        "{}",
        got.note
    );
    // 650e15/1.97e14, 300e15/1.97e14 and 700e15/1.97e14: all three.
    assert!(
        got.note
            .ends_with("it would put 3 of the 3 kernels more than 100 times above the roof."),
        "{}",
        got.note
    );
    let again = read(text, std::slice::from_ref(&got.choice));
    assert!(again.errors.is_empty(), "{:?}", again.errors);
    assert!(close(again.kernels[0].rate, 650e12));
    // Read as the rate, no second look; nor when the user chose the field,
    // nor when the counts are plausible.
    assert_eq!(rate_by_roof(&again, &[got.choice], &roof), None);
    let chosen = [("TFLOPS".to_string(), Field::Flops)];
    assert_eq!(rate_by_roof(&read(text, &chosen), &chosen, &roof), None);
    let plausible = read("name,TFLOPS,bytes,time_ms\na,0.1,1e9,1\n", &[]);
    assert_eq!(rate_by_roof(&plausible, &[], &roof), None);
    // A bare `flops` is a count, however high.
    let bare = read("name,flops,bytes,time_ms\na,650e12,1e9,1\n", &[]);
    assert_eq!(rate_by_roof(&bare, &[], &roof), None);
}

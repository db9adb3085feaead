//! The "Why?" beside each result that surprises: the page's own words for
//! the questions the chapters' readers ask most, keyed so the page can put
//! each beside its number.

/// `(key, answer)` for each surprise: `gather-size`, `allreduce-twice`,
/// `alltoall-quarter`, `which-bandwidth`, `wraparound`, `tp-batch`,
/// `fsdp-dp`, `dcn`.
pub const WHY: [(&str, &str); 8] = [
    (
        "gather-size",
        "Why does an AllGather take as long over 4 chips as over 16? Each chip must end up with the whole array, so it receives nearly all V bytes whatever the group's size. More chips means more, smaller pieces, arriving over the same links at the same rate: only the latency, one hop per step, grows with the axis.",
    ),
    (
        "allreduce-twice",
        "Why does an AllReduce cost twice an AllGather? It is two of them in a row: a ReduceScatter leaves each chip the sum of its own slice, then an AllGather hands every chip every summed slice. Each pass moves about V bytes a chip, so the total is 2V / W.",
    ),
    (
        "alltoall-quarter",
        "Why is an AllToAll a quarter of an AllGather? Each chip sends every other chip only the piece meant for it, 1/n of its shard, and a piece travels on average a quarter of the way round a wrapped ring in each direction. On a one-way ring it is half.",
    ),
    (
        "which-bandwidth",
        "Which bandwidth? W_ici in these formulas is what one chip moves along one axis: both directions of its links when the axis wraps around (the bidirectional figure, twice the one-way), one direction when it does not. Over several axes at once, the axes' figures add up.",
    ),
    (
        "wraparound",
        "Why does the wraparound matter? With it an axis is a ring, and a chip sends half its data each way round: half the hops, twice the bandwidth. Without it the axis is a line, and the far ends' data must cross all of it one way: about twice as long.",
    ),
    (
        "tp-batch",
        "Why does tensor parallelism's limit ignore the batch? Its math and its comms both grow with the batch: every token's activations are gathered and scattered, and every token is multiplied. Their ratio is F / (Y·α) per axis, so only Y, F and the hardware decide it.",
    ),
    (
        "fsdp-dp",
        "Why do FSDP and DP share a threshold? Both send weights, not activations: DP all-reduces the gradients once a step, FSDP also gathers the weights in the forward pass. Per layer each moves bytes proportional to D·F against math proportional to B·D·F / X, so both turn compute-bound at the same tokens per chip, α / M_X.",
    ),
    (
        "dcn",
        "Which way does the DCN inequality point? Across pods each chip sends its share of the gradients over its own slow DCN link, but only once a step, while the math grows with the tokens each pod handles. A pod needs more tokens than C / W_dcn for the math to hide the gradients.",
    ),
];

/// The answer for `key`, if there is one.
pub fn why(key: &str) -> Option<&'static str> {
    WHY.iter().find(|(k, _)| *k == key).map(|(_, a)| *a)
}

/// `n` chips, with the noun agreeing: "1 chip", "8,960 chips".
pub(crate) fn chips(n: f64) -> String {
    counted(n, "chip", "chips")
}

/// `n` axes, with the noun agreeing: "1 axis", "3 axes".
pub(crate) fn axes(n: f64) -> String {
    counted(n, "axis", "axes")
}

/// Axes by name: "Axis Y", "Axes Y and Z", "Axes X, Y and Z".
pub(crate) fn axes_named(names: &[char]) -> String {
    let list: Vec<String> = names.iter().map(char::to_string).collect();
    match list.as_slice() {
        [] => String::new(),
        [one] => format!("Axis {one}"),
        _ => format!("Axes {}", listed(&list)),
    }
}

/// Items joined as a sentence lists them: "a", "a and b", "a, b and c".
pub(crate) fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `n` of a noun, agreeing: `counted(1.0, "token", "tokens")` is "1 token".
pub(crate) fn counted(n: f64, one: &str, many: &str) -> String {
    let noun = if n == 1.0 { one } else { many };
    format!("{} {noun}", crate::format::count(n))
}

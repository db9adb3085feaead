//! The answers to the "Why?" questions of [`super`], by key. Only the app's
//! `why` chunk calls [`answer`], so their text is downloaded after the first
//! chart, not with it.

/// The answer to the question with `key`, a paragraph per entry; empty for
/// a key that has none. Not inlined, so that the size rules see where it is
/// (the why chunk's, tests/size-rules.mjs).
#[inline(never)]
pub fn answer(key: &str) -> &'static [&'static str] {
    match key {
        "origin" => &[
            "The axes are logarithmic: each grid step is ten times the one before, so zero lies infinitely far down and to the left. Every line is attained FLOP/s = bandwidth × intensity, which does pass through zero.",
            "Untick “Log axes” to draw the same chart on linear axes: there every line starts at the origin.",
        ],
        "slopes" => &[
            "On log axes, y = bandwidth × x becomes log y = log x + log bandwidth: every line has slope 1, and a faster memory is the same line shifted up by the log of its bandwidth.",
            "On linear axes the bandwidth is the slope itself, so the faster line is the steeper one. Switch to linear axes to see the two slopes.",
        ],
        "bend" => &[
            "A line meets the roof where bandwidth × intensity = peak, that is at intensity = peak ÷ bandwidth: the critical intensity with respect to that bandwidth. Each level has its own, and the faster the memory, the lower its critical intensity, so its line reaches the roof first.",
            "A chip has no single critical intensity: there is one per memory level or link. The results use the first line's.",
        ],
        "roof" => &[
            "The roof is the chip's peak FLOP/s at the data type the math runs in: how fast it computes, wherever the data comes from. A faster memory lets an operation reach that peak at a lower intensity; it never raises the peak.",
        ],
        "marks" => &[
            "The shading maps the regimes: an operation whose intensity falls in a region is bound as the legend under the chart says.",
            "The dashed vertical line is your operation (an algorithm, not the chip), with a dot where it meets each line and the throughput it attains there. With two or more chips a second dashed line, named at the line, is its network intensity. The dotted drops, in each line's colour, mark where that line bends.",
        ],
        "lower-bound" => &[
            "A chip can move bytes and compute at the same time. At best the two overlap completely, and the operation then lasts as long as the slower of them: it cannot finish before its last byte has arrived, nor before its last FLOP is done. So max(T_math, T_comms) is the least time it can take, and T_math + T_comms, with no overlap at all, the most.",
        ],
        "flops-rate" => &[
            "FLOPs count work: how many floating-point operations the operation needs. FLOP/s is a rate: how many the chip can do each second. Work divided by rate is time, so T_math = FLOPs ÷ peak FLOP/s, just as T_comms = bytes ÷ bytes per second.",
        ],
        "intensity-test" => &[
            "Set the two times equal: FLOPs ÷ peak = bytes ÷ bandwidth. Rearranged, FLOPs ÷ bytes = peak ÷ bandwidth. The left side is the operation's arithmetic intensity, the right side the chip's critical intensity.",
            "So when the operation's intensity is the higher, T_math is the longer time and it is compute-bound; when it is the lower, the bytes take longer and it is bandwidth-bound. The chip's ratio does not say any byte needs that many FLOPs: it is the intensity at which the two times balance.",
        ],
        "tokens" => &[
            "B is the number of rows of the activations, and a matmul does not care where the rows come from. For a batch of sequences, shaped [batch, length], every token is a row: B = batch × sequence length, counted on this chip. A critical batch size is therefore a number of tokens per chip.",
        ],
        "small-b" => &[
            "In a matmul's bytes, only the weights' term (DF times its element size) has no B in it. When B is much smaller than D and F that term dwarfs the others, so the bytes are about the weights alone and the intensity about 2BDF ÷ (the weights' bytes): B for bf16 weights, 2B for int8 ones.",
            "With a small D or F the other terms count too, and the approximation overstates the intensity: the results show both, and the batch-size chart uses the exact bytes.",
        ],
        "contract" => &[
            "The subscript names the dimension that is summed over, as in einsum: X[B,D] ·_D Y[D,F] → Z[B,F] multiplies along D and sums it away, which is an ordinary matmul.",
            "Here you write * (or ·) without the subscript: every dimension that appears in the inputs but not in the output is summed over.",
        ],
        "dtype-flops" => &[
            "No. Each term of the sum is one multiply and one add, 2 FLOPs, whether the numbers are int8, bf16 or fp32. The type changes the bytes, since each element takes its type's size, and the peak, since a chip runs some types faster.",
            "int8 weights with bf16 activations halve the weights' bytes and leave the FLOPs at 2BDF.",
        ],
        "per-chip" => &[
            "Split D in two and each chip multiplies its own halves: X₀·Y₀ on one, X₁·Y₁ on the other. The full product is their sum, X₀·Y₀ + X₁·Y₁, so no chip needs the other's halves. Over N chips each does 1/N of the FLOPs and sends its partial sum, which has the whole output's shape.",
            "Why no cross terms such as X₁·Y₀? Write one element of the product: Z[b,f] = Σ_d X[b,d]·Y[d,f]. Cut the sum over d at D/2: Σ_{d<D/2} X[b,d]·Y[d,f] + Σ_{d≥D/2} X[b,d]·Y[d,f], which is (X₀·Y₀)[b,f] + (X₁·Y₁)[b,f]. Every term pairs an X column with the Y row of the same d, and X₁ holds only the columns d ≥ D/2 while Y₀ holds only the rows d < D/2: they never meet.",
            "The chips work at the same time, so every time is per chip.",
        ],
        "link" => &[
            "One link in one direction: a chip sends its partial sum to a neighbour over one link. Spec sheets often quote a chip's total over all of its links, and sometimes both directions, which is several times larger.",
            "TPU v5e is an example. Google quotes 1,600 Gbps of interchip bandwidth for the chip: all of its ICI links together. In bytes that is 1,600 ÷ 8 = 200 GB/s; a v5e in a 2D torus has four neighbours, so four links of about 50 GB/s each. The chapter uses 4.5e10 bytes/s per link and direction, a little under that. The figure the results use is in the chip's numbers, under the link's name.",
        ],
        "hbm" => &[
            "The link's bound asks one thing: does the link keep up with the math? It sets the bytes that cross between chips against the FLOPs each chip does, and B cancels out of that comparison.",
            "Each chip still reads its share of the inputs (X and Y with D cut in N) from its own memory and writes its partial result there: that is the third time per chip, in the rows above (T_HBM per chip), against the same chip's share of the math. With D split, each chip reads 1/N of the weights, so its memory time shrinks too. The slowest of the three times per chip binds, and the sentence above the rows names it.",
            "The adds that combine the partial sums are left out, as in the chapter: they are few next to the multiplications.",
        ],
        "gather" => &[
            "Splitting D, the summed dimension, leaves every chip with a partial result of the whole output's shape, and the partials must be added: that is a reduction (a reduce-scatter, or an all-reduce when every chip wants the whole sum), not an all-gather. An all-gather only copies pieces from chip to chip and does no arithmetic. It appears when the split is on a dimension that is not summed over, such as F: each chip then holds a slice of the output, and gathering the slices costs bytes over the link but no FLOPs.",
            "The additions of the reduction are B·F per partial, tiny next to the 2BDF ÷ N of each chip's share, so T_math leaves them out. Loading the inputs and writing the result back are each chip's own memory traffic: the T_HBM row, a bound of its own beside T_math and T_comms, not part of either.",
        ],
        "collective" => &[
            "In a ring, a chip can only pass data to its neighbour. A ring all-reduce is a reduce-scatter, which passes N−1 pieces of 1/N of the partial around the ring and leaves each chip one piece fully summed, then an all-gather, which passes the summed pieces around again so that every chip has the whole result: 2(N−1)/N of a partial sent per chip.",
            "With two chips that is exactly one partial each, the chapter's count. With more it approaches two partials, so a ring doubles the link's time at large N. A reduction done inside the network's switches (NVIDIA calls its version SHARP) lets each chip send its partial once: the first choice, and a lower bound for any other way of summing.",
        ],
        "sparse" => &[
            "For recent NVIDIA and AMD parts, the headline tensor figure assumes 2:4 structured sparsity: two of every four weights are zero and the hardware skips them. A dense matmul, the kind this chapter counts, runs at half that rate. Every preset here uses the dense peak, and the note under the chip shows both figures and the critical intensity each gives.",
            "The readers' discussion quoted an RTX 3090 from its sparse fp16 figure, which doubles the critical batch. A GeForce card also runs bf16, and fp16 with fp32 accumulation, at half its fp16-accumulate rate: pick the data type the math runs at to see which peak applies.",
        ],
        "decode-bandwidth" => &[
            "A decode step makes one token for each of the B sequences, so every weight matmul is Part 1's X[B,D] · W[D,F] with B rows: its intensity is about B for bf16 weights. Every weight is read once per step whatever B is, while the FLOPs grow with B. Below the critical batch, reading the weights takes longer than using them, so the weights' part of the step is their bytes ÷ the bandwidth, the same for one sequence as for many.",
            "The step still grows with B: each sequence reads its own KV cache, B·S·KV per token ÷ W, added to the weights' part. At short context that is small and extra sequences are cheap; at long context it can be most of the step (the rows above show both). Above the critical batch the weights' math takes over from their loading too, and the latency-throughput curve bends.",
        ],
        "kv-long" => &[
            "The weights are read once per step for the whole batch; the KV cache is read once per step for every sequence, and it grows with the context: B·S·2·L·K·H bytes against P bytes of weights. So at long context and large batches the cache, not the weights, is most of the bytes, and of the memory.",
            "That part of the step is attention, which is never compute-bound: each cached key and value is used once per new token, an intensity of about the number of query heads per KV head at best. Batching does not help it, since each sequence reads its own cache; a smaller cache (fewer KV heads, an int8 cache) does.",
        ],
        "int8-critical" => &[
            "The weight matmuls turn compute-bound when 2·B·P ÷ C exceeds P·(bytes per weight) ÷ W, that is when B > (C ÷ W) × (bytes per weight) ÷ 2. With int8 weights and bf16 math, C stays bf16's and the bytes per weight halve, so the critical batch halves: loading is twice as fast against the same math.",
            "Doing the math in int8 too doubles C on a chip with an int8 peak, and the critical batch is back where bf16 had it. Lower critical batches mean smaller batches already use the chip fully.",
        ],
        "gqa" => &[
            "With grouped-query attention K key/value heads serve N query heads, N ÷ K each. The KV cache per token is 2·L·K·H bytes per element, so it shrinks by N ÷ K against multi-head attention (K = N): more sequences and longer contexts fit, and the cache reads of every decode step shrink by the same factor.",
            "Attention's FLOPs do not change (2·B·T·S·N·H for QK): every query head still attends. Its intensity rises by N ÷ K, since each key and value read now serves that many heads, but it stays low.",
        ],
        "moe-count" => &[
            "A mixture of experts has E MLPs per layer and each token uses k of them. P counts all E (memory, and the bytes read when every expert is used); P_act counts k, as model cards do; P_mm, the parameters a token multiplies (2·P_mm FLOPs), leaves out the input embedding table, a lookup. Each layer's router is counted too (D·E).",
            "A small batch does not touch every expert. With uniform routing a layer reads E·(1 − (1 − k ÷ E)^tokens) experts on average, so the weights read grow with the batch until all are read. The critical batch, with every expert read, is (C ÷ W) × bytes ÷ 2 × P_read ÷ P_mm. If the experts were all the weights that ratio would be E ÷ k; the attention and the embeddings, which every token uses, make it smaller, and the row shows the ratio the page uses.",
        ],
        "tp-layout" => &[
            "Over several chips the page assumes tensor parallelism, the layout the book's inference chapter sketches: each layer's query heads and MLP columns are split n ways, every chip holds 1/n of the weights and reads them in parallel, and each layer ends its attention and its MLP with an all-reduce of the tokens' activations, B·D values in decode. An all-reduce sends 2(n − 1)/n of that array from every chip, and each of its hops costs a latency; at a small batch the latency is most of it.",
            "KV heads cannot be split finer than one per chip: beyond K chips each chip keeps the KV head its query heads need, so the cache is held more than once and each chip reads its own copy. The book treats the link as overlapping the step, which is then the larger of the two; untick the box to add it instead, the worst case. The book's sketch, one B·D transfer a layer over one link, is shown beside the layout's figure.",
        ],
        "efficiency" => &[
            "The roofline is a bound: it assumes the chip reaches its peak FLOP/s and its full bandwidth. Real kernels reach less, often 40 to 70% of the FLOPs in a large matmul and 70 to 90% of the bandwidth in a well-written decode step. The two fractions scale C and W, so the times become estimates of what a real server would see; at 100% they are the bounds.",
            "The book's prefill example assumes 40% of the peak. Set the fractions from a measurement (the calculator's \"Your measurements\" gives the share of the roof a kernel reached) to predict the rest.",
        ],
        _ => &[],
    }
}

/// Every key [`answer`] knows, in the order of the page.
pub const KEYS: &[&str] = &[
    "sparse",
    "origin",
    "slopes",
    "bend",
    "roof",
    "marks",
    "lower-bound",
    "flops-rate",
    "intensity-test",
    "tokens",
    "small-b",
    "contract",
    "dtype-flops",
    "per-chip",
    "link",
    "hbm",
    "gather",
    "collective",
    "decode-bandwidth",
    "kv-long",
    "int8-critical",
    "gqa",
    "moe-count",
    "efficiency",
];

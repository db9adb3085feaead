# Roofline Lab: time PyTorch functions and print rows that the measurements
# panel reads (paste the output into "Your measurements"). FLOPs are
# counted by FlopCounterMode (matmuls and convolutions only); bytes are the
# inputs read once and the output written once, the least any kernel moves.
import time

import torch
from torch.utils.flop_counter import FlopCounterMode


def measure(name, f, *args, repeats=20):
    with FlopCounterMode(display=False) as counter:
        out = f(*args)
    flops = counter.get_total_flops()
    moved = sum(t.numel() * t.element_size() for t in (*args, out))
    for _ in range(3):  # warm up
        f(*args)
    if torch.cuda.is_available():
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeats):
            f(*args)
        end.record()
        torch.cuda.synchronize()
        seconds = start.elapsed_time(end) / 1e3 / repeats
    else:
        begin = time.perf_counter()
        for _ in range(repeats):
            f(*args)
        seconds = (time.perf_counter() - begin) / repeats
    print(f"{name},{flops:.6g},{moved:.6g},{seconds:.6g}")


device = "cuda" if torch.cuda.is_available() else "cpu"
print("name,flops,bytes,time_s")
x = torch.randn(4096, 4096, device=device, dtype=torch.bfloat16)
measure("matmul 4096", torch.matmul, x, x)
measure("matmul B=64", torch.matmul, x[:64], x)

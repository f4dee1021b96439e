"""Prints Argon2id CPU seconds per hash as JSON, timed in-process on a shared libargon2.

Usage: python3 argon2_cpu.py LIBARGON2_PATH M_KIB T P SAMPLES
The library is the one latchd links (bench.sh finds it with ldd), called through ctypes with
argon2id_hash_raw, so the figure is the hash alone: no process start, and after the first (cold)
call the 19 MiB block comes back from malloc already mapped, as in a long-running server.
time.process_time() is this process's CPU time, so other load on the cores inflates it little.
"""
import ctypes
import json
import os
import sys
import time

path, m, t, p, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
lib = ctypes.CDLL(path)
password = b"BenchPassw0rd!2026"
out = ctypes.create_string_buffer(32)
samples = []
for _ in range(n + 1):
    salt = os.urandom(16)
    start = time.process_time()
    rc = lib.argon2id_hash_raw(t, m, p, password, len(password), salt, len(salt), out, len(out))
    samples.append(time.process_time() - start)
    if rc != 0:
        sys.exit(f"argon2id_hash_raw failed with {rc}")
cold, warm = samples[0], sorted(samples[1:])
print(json.dumps({"library": path, "cold_s": cold, "mean_s": sum(warm) / len(warm),
                  "median_s": warm[len(warm) // 2], "min_s": warm[0], "samples": len(warm)}))

# expect: large_write
with open("/mnt/data/fill.bin", "wb") as f:
    for _ in range(10_000_000):
        f.write(os.urandom(1024))

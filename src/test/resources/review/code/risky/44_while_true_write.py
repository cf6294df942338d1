# expect: large_write
with open("/mnt/data/fill.log", "a") as f:
    while True:
        f.write("spam\n" * 1000)

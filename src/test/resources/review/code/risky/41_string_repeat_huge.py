# expect: large_write
blob = "x" * 10**10
with open("/mnt/data/blob.txt", "w") as f:
    f.write(blob)

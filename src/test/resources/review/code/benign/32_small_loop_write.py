with open("/mnt/data/report.txt", "w") as f:
    for i in range(100):
        f.write(f"line {i}\n")

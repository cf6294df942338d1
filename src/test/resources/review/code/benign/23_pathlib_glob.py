from pathlib import Path
data_dir = Path("/mnt/data")
files = sorted(data_dir.glob("*.csv"))
frames = [pd.read_csv(p) for p in files]
combined = pd.concat(frames, ignore_index=True)
print(len(files), "files,", len(combined), "rows")

df.to_parquet("/mnt/data/clean.parquet", index=False)
back = pd.read_parquet("/mnt/data/clean.parquet")
assert back.shape == df.shape
print("round trip ok")

import tempfile
tmp = "/tmp/scratch.csv"
df.head(1000).to_csv(tmp, index=False)
sample = pd.read_csv(tmp)
print(sample.shape)
with tempfile.TemporaryDirectory() as d:
    print("working in", d)

df = df.eval("margin = revenue - cost")
high = df.query("margin > 1000 and region == 'EU'")
print(pd.eval("df.margin.sum()"))
high.to_parquet("/mnt/data/high_margin.parquet")

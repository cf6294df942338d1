import re
pattern = re.compile(r"[^0-9.]")
df["price"] = df["price"].astype(str).map(lambda s: pattern.sub("", s)).astype(float)
df["sku"] = df["sku"].str.upper().str.strip()

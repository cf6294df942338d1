df["name"] = df["name"].apply(lambda s: s.title() if isinstance(s, str) else s)
df["initials"] = df["name"].str.split().map(lambda parts: "".join(p[0] for p in parts) if parts else "")

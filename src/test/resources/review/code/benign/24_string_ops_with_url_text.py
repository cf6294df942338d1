df["comment"] = df["comment"].fillna("")
mentions = df["comment"].str.contains("http://", regex=False).sum()
print(f"{mentions} comments contain a link like http://example.com/page")
print("Tip: requests.get(url) is how you would fetch it, but the sandbox has no network.")

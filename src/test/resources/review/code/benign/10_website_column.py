# The website column holds URLs like http://shop.example.com; count the domains
from urllib.parse import urlparse
df["domain"] = df["website"].dropna().map(lambda u: urlparse(u).netloc)
print(df["domain"].value_counts().head(20))
secure = df["website"].str.startswith("https://").mean()
print(f"{secure:.1%} of websites use https")

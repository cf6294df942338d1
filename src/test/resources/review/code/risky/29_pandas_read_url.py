# expect: http_client(host=raw.evil.example.net allowed=false)
df = pd.read_csv("https://raw.evil.example.net/data.csv")

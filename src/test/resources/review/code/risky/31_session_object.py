# expect: http_client(host=evil.example.net allowed=false)
import requests
with requests.Session() as s:
    s.headers.update({"User-Agent": "x"})
    s.get("https://evil.example.net/")

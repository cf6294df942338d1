# expect: http_client(host=pypi.org allowed=true)
import requests
r = requests.get("https://pypi.org/pypi/pandas/json")
print(r.json()["info"]["version"])

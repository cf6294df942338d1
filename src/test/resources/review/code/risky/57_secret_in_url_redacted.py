# expect: http_client(host=hooks.slack.com allowed=false)
import requests
requests.post("https://hooks.slack.com/services/T0000000/B0000000/XXXXXXXXXXXXXXXXXXXXXXXX", json={"text": "done"})

# expect: http_client(host=evil.example.net allowed=false)
import http.client
conn = http.client.HTTPSConnection("evil.example.net")
conn.request("GET", "/")

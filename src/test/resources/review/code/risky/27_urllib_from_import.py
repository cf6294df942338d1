# expect: http_client(host=data.evil.example.net allowed=false)
from urllib.request import urlopen
body = urlopen("http://data.evil.example.net/feed.csv").read()

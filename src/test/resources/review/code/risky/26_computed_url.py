# expect: http_client(host=?)
import urllib.request
host = "evil" + ".example.net"
urllib.request.urlopen(f"http://{host}/x")

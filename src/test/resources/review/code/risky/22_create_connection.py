# expect: raw_socket(host=evil.example.net allowed=false)
import socket
conn = socket.create_connection(("evil.example.net", 443))
conn.sendall(b"hello")

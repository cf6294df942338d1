# expect: base64_obfuscation
import zlib, base64
payload = zlib.decompress(base64.b64decode(blob))
exec(payload)

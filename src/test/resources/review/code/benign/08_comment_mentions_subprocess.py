# We could call subprocess.run(["unzip", ...]) but zipfile is safer and stays in Python.
import zipfile
with zipfile.ZipFile("/mnt/data/archive.zip") as z:
    z.extractall("/mnt/data/archive")
print(os.listdir("/mnt/data/archive"))

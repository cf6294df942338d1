import shutil
os.makedirs("/mnt/data/backup", exist_ok=True)
shutil.copy("/mnt/data/sales.csv", "/mnt/data/backup/sales.csv")
shutil.make_archive("/mnt/data/backup_archive", "zip", "/mnt/data/backup")
print(os.path.getsize("/mnt/data/backup_archive.zip"))

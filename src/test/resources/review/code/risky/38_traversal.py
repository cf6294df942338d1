# expect: outside_mnt_data(path=/opt)
df = pd.read_csv("/mnt/data/../../opt/app/config.csv")

data = pd.read_json("/mnt/data/metrics.json")
data.plot(x="day", y=["cpu", "mem"], figsize=(12, 4))
plt.savefig("/mnt/data/metrics.png")

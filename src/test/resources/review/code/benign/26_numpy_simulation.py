rng = np.random.default_rng(7)
samples = rng.normal(loc=100, scale=15, size=100_000)
print(samples.mean(), samples.std())
grid = np.zeros((1000, 1000))
grid[::10, ::10] = 1
np.save("/mnt/data/grid.npy", grid)

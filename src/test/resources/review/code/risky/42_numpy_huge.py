# expect: large_write
big = np.zeros((100000, 100000))
np.save("/mnt/data/big.npy", big)

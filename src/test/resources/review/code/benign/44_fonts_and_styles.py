from matplotlib import font_manager
font_manager.fontManager.addfont("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
plt.rcParams["font.family"] = "DejaVu Sans"
plt.style.use("ggplot")

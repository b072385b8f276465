"""Camera sources, the motion gate, the dart detector and the scene simulator."""

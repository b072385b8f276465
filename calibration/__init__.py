"""Image <-> board homography: from markers, tapped points or artwork; lens; drift check."""

"""Reading camera images for calibration, a cheap sharpness measure for blur messages, local
contrast normalisation and the shift between two pictures."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from calibration.errors import CalibrationError

#: Below this (variance of the Laplacian of a 640 px wide copy) a photo is called blurred.
BLUR_THRESHOLD = 40.0


def read_image(path: str | Path, what: str = "image") -> np.ndarray:
    path = Path(path)
    if not path.exists():
        raise CalibrationError(f"{path}: no such {what} file")
    if path.is_dir():
        raise CalibrationError(f"{path}: is a folder, expected an {what} file")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise CalibrationError(
            f"{path}: not a readable image (PNG or JPEG expected). Fix: save a camera frame "
            "as PNG or JPEG"
        )
    return image


def gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def sharpness(image: np.ndarray) -> float:
    """Variance of the Laplacian on a 640 px wide copy: low for blurred or empty photos."""
    g = gray(image)
    scale = 640.0 / max(1, g.shape[1])
    if scale < 1:
        g = cv2.resize(g, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(g, cv2.CV_64F).var())


def blur_hint(image: np.ndarray) -> str:
    """A sentence for error messages when the photo looks blurred, else ''."""
    value = sharpness(image)
    if value < BLUR_THRESHOLD:
        return (
            f" The photo looks blurred (sharpness {value:.0f}, expected over "
            f"{BLUR_THRESHOLD:.0f}): focus the camera and keep it still."
        )
    return ""


def normalised(image: np.ndarray, sigma: float = 10.0) -> np.ndarray:
    """Local contrast normalisation: cancels uneven light and paper/ink differences."""
    g = image.astype(np.float32)
    centred = g - cv2.GaussianBlur(g, (0, 0), sigma)
    return centred / (np.sqrt(cv2.GaussianBlur(centred * centred, (0, 0), sigma)) + 4.0)


def phase_shift(
    first: np.ndarray, second: np.ndarray, window: np.ndarray
) -> tuple[tuple[float, float], float]:
    """How far (px) ``second`` is moved against ``first`` by phase correlation under
    ``window``, and the peak's strength (0-1). The pictures are left as they are:
    ``cv2.phaseCorrelate`` multiplies its inputs by the window in place (OpenCV 4 and 5),
    which would taper a picture kept for later, once more at every call."""
    (dx, dy), response = cv2.phaseCorrelate(first * window, second * window)
    return (float(dx), float(dy)), float(response)

"""Image <-> board homography: from markers, tapped points or artwork; lens; drift check.

Entry points (each returns a ``calibration.result.CalibrationResult``: ``.calibration`` to
save with ``calibration.model.save`` and ``.report`` for people; call ``.require_quality()``
before saving):

- ``calibration.markers.calibrate_from_markers(board, image, lens=None)``
- ``calibration.manual.calibrate_from_points(board, image_size, points, lens=None)`` with
  ``calibration.manual.parse_points(json_value, board)`` for the web UI's taps
- ``calibration.markerless.calibrate_markerless(board, image, lens=None, reference=None)``
- ``calibration.drift.check_drift(calibration, board, frame) -> DriftResult``
- ``calibration.lens.calibrate_lens(photos)``, ``load_lens``, ``save_lens``
- ``calibration.overlay.draw_overlay(image, calibration, board, report)``
- ``calibration.bench.run(seed, json_output)``
"""

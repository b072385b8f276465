"""The dart detector: a state machine over frames (still -> moving -> settled -> decide).

When the scene has settled after a change it compares the frame with two frames it keeps:
``scene`` (the board as it was after the last decision, darts and all) and ``reference`` (the
board with no darts, refreshed at each takeout). A pixel belongs to something *new* only if
it differs from both, so darts pulled out never look like darts thrown. Differences are
measured after a smooth light correction (a robust ratio field), against a threshold taken
from the camera's measured noise; sizes are judged in board millimetres through the
calibration, so the same code suits any camera, lens and resolution.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from boards.model import Board
from calibration.model import Calibration
from vision.align import (
    TURN_PX,
    apart_px,
    half,
    high_pass,
    high_pass_grey,
    measure_shift,
    refine_homography,
    shift_back,
    shift_matrix,
    turned_px,
    warp_back,
)
from vision.changes import (
    EXPOSURE_STEP,
    SATURATED,
    clipped_absdiff,
    edge_strength,
    fine_detail,
    gain_field,
    lit,
    lowpass_absdiff,
    luma_absdiff,
    max_channel_absdiff,
    misregistration_px,
    scaled,
    tiled_quantile,
)
from vision.events import BounceoutEvent, DartEvent, Event, TakeoutEvent
from vision.focus import matching_blur, only_sharpness
from vision.frames import Frame, require_size
from vision.geometry import DartGeometry, OutOfBoard
from vision.motion import (
    LOUDER,
    MAD_TO_SIGMA,
    MotionGate,
    downscale,
    local_change,
    robust_sigma,
)
from vision.shadows import (
    POINT_MM,
    at_shadow_fork,
    at_shadow_start,
    end_on_tip,
    lone_shadow_tip,
    shadow_like,
)
from vision.tip import (
    FAR_SOLID,
    LOOK_TUFT_MM,
    MAX_LEAN_DEG,
    TUFT_MM,
    TipFit,
    axis_coordinates,
    fit_tip,
)
from vision.white_balance import balanced_like

#: An object blob, its pixels and those of them that are not shadow (see ``_with_pixels``).
Pixels = tuple[np.ndarray, np.ndarray]
ObjectPixels = tuple[np.ndarray, tuple[Pixels, Pixels]]


# What reading a settle may change of the detector (see ``Detector._settle_state``).
SETTLE_STATE = (
    "reference",
    "reference_small",
    "_empty_before",
    "_reference_remade",
    "scene",
    "scene_small",
    "darts",
    "camera_shift_px",
    "_camera_turn",
    "_soften_px",
    "_reference_slope",
    "_allowance",
    "threshold",
    "small_threshold",
    "noise_sigma",
    "_stayed",
    "_stayed_share",
)


class SettleError(RuntimeError):
    """What changed at a settle could not be read (a bug in the detector, not the user's
    doing). The detector goes on from the picture of that moment; a dart thrown then is not
    reported, and the players should enter it by hand."""

    def __init__(self, frame: str, cause: Exception) -> None:
        super().__init__(
            f"{frame}: the detector failed to read what changed "
            f"({type(cause).__name__}: {cause}); a dart thrown then is not reported"
        )
        self.frame = frame


@dataclass(frozen=True)
class DetectorConfig:
    gate_width: int = 320  # motion gate image width (px)
    settle_frames: int = 4  # quiet frames in a row before the scene counts as settled
    k_sigma: float = 4.5  # change threshold in robust noise sigmas
    min_threshold: float = 10.0  # grey levels: never trust a noise estimate below this
    refresh_every: int = 20  # still frames between light-tracking updates of the scene
    min_dart_mm: float = 28.0  # a blob shorter than this is a piece or a speck, not a dart
    min_elongation: float = 2.0
    long_dart_mm: float = 45.0  # this long counts as a dart whatever its shape
    max_dart_mm2: float = 9000.0  # a bigger blob is a hand or a body
    max_group_gap_mm: float = 40.0  # pieces of one dart split by an earlier dart
    min_dart_mm2: float = 250.0  # a barrel alone covers more than this
    max_piece_solidity: float = 0.75  # round pieces fill their convex hull, flights do not
    unseen_point_sigma_mm: float = 8.0  # about half a dart point's visible length
    # A steel point is too thin to show on the motion gate's small picture: the full-size
    # look must reach this far past the coarse change to see where it enters the board.
    max_point_mm: float = 50.0
    # From the point to the end of the flights, any common dart.
    max_dart_mm: float = 220.0


FLIGHT_HALF_SPAN_MM = 20.0  # how far a flight reaches beside its dart's axis
# A moved board or camera changes printed edges over at least this share of the picture's
# tiles that hold printed edges at once; no dart does.
MOVED_SPREAD = 0.25
# ... and undoing the move leaves at most this share of the changed pixels (see _explains)
MOVE_LEFT = 1 / 3
# A move measured roughly on the small pictures need take away only this share of what
# the move proper must (a third of the changed pixels, not two thirds; the tiles do not
# count there, see _explains): over bench seeds 1 and 7, every move that explained the change
# took away 57 % of the changed pixels or more when measured roughly; of the settles that no
# move explained, all but one lost 15 % or less (that one 53 %: it costs a search, no more).
ROUGH_MOVE_SHARE = 0.5
MOVED_TILES = 4  # and at least this many tiles changed (a dart's change reaches fewer)
TILE_GRID = (8, 6)  # the picture's tiles for the move test (columns, rows)
# A tile holds printed edges when at least this share of its pixels lie on one.
EDGE_TILE_SHARE = 0.01
# With fewer tiles holding printed edges than this, every tile counts.
MIN_EDGE_TILES = 6
# At least this share of a grey blob lies where the motion's dart-like blob stayed: the same
# share by which two frames' blobs count as one dart that stayed (``_stayed_or_fell``).
STAYED_SHARE = 0.3
# A photo has no motion to show where a dart stayed, only its whole change against the last
# photo, which also holds every faint change around: most of such a blob must lie in it.
PHOTO_STAYED_SHARE = 0.5
MAX_FALLING_PIECES = 2  # dart-like pieces of one frame that may be one dart
BORDER_SMALL_PX = 2  # a blob this close to the small picture's border comes from outside it
# A settle whose region holds more pieces of change than this changed all over: a dart, its
# shadows and specks make at most about 15 in video and 60 in photos (bench seed 1).
MAX_PIECES = 150
# A dart's shadow is at most this many times the longest dart (a lamp 60 degrees off the
# board's normal casts one 1.7 times as long as the dart stands out).
SHADOW_LONGEST = 2.0
FOCUS_WINDOW_PX = 384  # side of the square on the board's middle they are compared in
# A dart whose own pixels differ from the empty board in fewer than this share is gone:
# noise alone passes the change threshold in a few per cent of pixels.
GONE_SHARE = 0.1
BAND_AROUND_PX = 8  # how wide a band around a dart its light is measured on (see _light_around)
# A known dart within the change is still there if this share of its pixels differs from
# the empty board (a piece moved onto a pulled dart's place covers less of it).
NOT_PULLED_SHARE = 0.6
# Fewer of a known dart's pixels than this that showed it tell nothing of it.
MIN_SHOWN_PIXELS = 8
# Some of a dart itself must show, at least a flight's edge, not its shadow alone: this
# share of the least area of a dart.
SOME_OF_IT = 0.1
# Flights seen along their dart stand out of the board towards the camera: they reach
# about this far around its point in the picture (board mm).
CROSS_REACH_MM = 1.25 * FLIGHT_HALF_SPAN_MM
# The pixels of a cross of flights, wings reaching that far from its middle, lie on average
# about reach / sqrt(3) from it; a blob much more spread out is no such cross.
TUFT_RMS_MM = CROSS_REACH_MM / math.sqrt(3)


@dataclass
class _Candidate:
    """A blob judged a dart at a settle."""

    score: float  # solid area times how clearly its point was seen
    fit: TipFit
    group: np.ndarray = field(repr=False)
    slender: float  # length over width of its own blob (before tail pieces joined it)
    solid_mm2: float
    plain: bool  # a dart by its own blob alone (not by a shadow, not with tail pieces)
    mm: float  # board mm per pixel there


@dataclass
class KnownDart:
    event: DartEvent
    ys: np.ndarray = field(repr=False)
    xs: np.ndarray = field(repr=False)
    box: tuple[int, int, int, int] = (0, 0, 0, 0)  # x0, y0, x1, y1 (full-res pixels)
    axis: tuple[float, float] = (0.0, 0.0)  # unit, from the point towards the flights
    length_px: float = 0.0  # from the point to the far end of the flights
    # Placed by its own seen point on its pixels' line (not by a shadow, a tuft's centre or
    # a guess behind an earlier dart), whatever sigma the event was given.
    point_seen: bool = False


class Detector:
    """Feed frames with :meth:`process`; it returns the events each frame causes."""

    def __init__(
        self, board: Board, calibration: Calibration, config: DetectorConfig | None = None
    ) -> None:
        self.board = board
        self.calibration = calibration
        self.config = config or DetectorConfig()
        self.gate = MotionGate()
        self.state = "warmup"
        self.quiet = 0
        # the gate's pictures of the last frames of the warmup
        self._warm_seen: deque[np.ndarray] = deque(maxlen=self.config.settle_frames + 1)
        self.still_count = 0
        self.darts: list[KnownDart] = []
        self.reference: np.ndarray | None = None
        self.scene: np.ndarray | None = None
        self.scene_small: np.ndarray | None = None
        self.reference_small: np.ndarray | None = None
        # The empty board's pictures (full, small) from before the last takeout, while they
        # are on the grid of the frames: see ``_empty_to_judge``.
        self._empty_before: tuple[np.ndarray, np.ndarray] | None = None
        self._reference_remade = False  # the empty board's picture was remade since taken
        self.threshold = self.config.min_threshold
        self.noise_sigma = 0.0
        self.small_threshold = 8.0
        self.bounce_seen = False
        self._candidate: np.ndarray | None = None
        # where the dart-like blob of this motion stayed a moment (gate picture), if it did
        self._stayed: np.ndarray | None = None
        self._stayed_share = STAYED_SHARE
        self._previous: np.ndarray | None = None
        self._scale = 1.0
        self._mm_per_px = 1.0
        self._canonical = 1
        self._reference_grey: np.ndarray | None = None
        self._reference_half: np.ndarray | None = None  # the same, halved (photo alignment)
        self._window: np.ndarray | None = None
        # the empty board's small picture high-passed, and the window to correlate it in
        self._reference_small_grey: np.ndarray | None = None
        self._window_small: np.ndarray | None = None
        self._gate_on_preview = False  # the motion gate watches the camera's preview stream
        # Separate photos only: the empty board's edge slopes, and the change that a residual
        # misregistration of this photo makes on them (None: compare pixels as they are).
        self._reference_slope: np.ndarray | None = None
        self._allowance: np.ndarray | None = None
        # how far the board moved in the picture since the empty board was taken (x, y px;
        # at the board's middle when it also turned)
        self.camera_shift_px: tuple[float, float] = (0.0, 0.0)
        # the whole move when a shift does not say it all (the board or camera turned a
        # little): the homography from the empty board's grid to the picture
        self._camera_turn: np.ndarray | None = None
        # The camera focused anew and now sees sharper than the stored pictures: each frame
        # is blurred by this much (Gaussian sigma, px) before it is compared (0: not).
        self._soften_px = 0.0
        # photos had to be turned back onto the empty board's grid (a camera held in the hand)
        self._turned = False
        # photos had to be shifted back by a fraction of a pixel (a tripod touched)
        self._shifted = False
        self.last_timing: dict[str, float] = {}
        # Since when (the frame's timestamp) every settle saw something big and new in front
        # of the board, which is no dart (a person; or the board or camera moved further
        # than can be followed): None while the board is seen. Nothing is found meanwhile.
        self.blocked_since: float | None = None
        self._blocked_earlier: float | None = None  # blocked_since before this settle
        # When (the frame's timestamp) the last settle after a jump of the light was taken in
        # without looking for darts (see ``_light_taken_in``): None if none was.
        self.light_jumped_at: float | None = None
        self._timestamp = 0.0
        self._quiet_frame: np.ndarray | None = None  # the last still frame of a motion
        # the motion gate's picture of the last still frame before a motion
        self._before_motion: np.ndarray | None = None
        self._measured_at_sigma: float | None = None  # the gate's noise when it was measured
        # the boxes the last settle looked in (a probe for tests and tools)
        self.last_regions: list[tuple[int, int, int, int]] = []
        self.out_of_board = OutOfBoard(calibration)
        # where the board's corners are in the picture: a photo's alignment matters there
        w_mm, h_mm = board.width_mm, board.height_mm
        self._board_corners_px = calibration.board_to_image(
            np.array([[0, 0], [w_mm, 0], [0, h_mm], [w_mm, h_mm]], np.float64)
        )
        self.dart_geometry = DartGeometry(calibration)
        self._mm_memo: dict[tuple[float, float], float] = {}

    # --- public -----------------------------------------------------------------------------
    def process(self, frame: Frame) -> list[Event]:
        require_size(frame, self.calibration.image_size, "the calibration's")
        self._timestamp = frame.timestamp
        image = frame.image
        width = self.config.gate_width
        # The camera's own low-resolution stream (the Pi's) only feeds the motion gate: it
        # has its own brightness scale (video range, another mix of the colours), while every
        # stored small picture, and every one made anew when a move is looked for, comes from
        # the frame itself. Most frames are still: they need no small picture of their own.
        small: np.ndarray | None = None
        self._gate_on_preview = frame.lores is not None
        if frame.lores is not None:
            seen = downscale(frame.lores, width)
        else:
            small = seen = downscale(image, width)
        gate = self.gate.update(seen)
        if self.state == "still" and not gate.moving:
            self._before_motion = seen
            self.still_count += 1
            if self.still_count % self.config.refresh_every == 0:
                small = small if small is not None else downscale(image, width)
                self._track_light(*self._in_reference_grid(image, small))
            return []
        small = small if small is not None else downscale(image, width)
        if self.state == "warmup":
            return self._warmup(image, small, seen)
        if self.state == "still":
            self.state = "moving"
            self.quiet = 0
            self.bounce_seen = False
            self._candidate = None
            self._stayed = None
            self._stayed_share = STAYED_SHARE
        # moving
        if gate.moving:
            self.quiet = 0
        else:
            self.quiet += 1
        if not self.bounce_seen:
            # A dart that bounces out is seen as a dart-like blob in two frames running:
            # in the same place (it stayed in the board a moment) or lower down (falling).
            # A hand or a body always reaches in from the picture's border.
            candidate = self._dart_like_small(self._small_in_reference_grid(small))
            previous, self._candidate = self._candidate, candidate
            if candidate is not None and previous is not None:
                self.bounce_seen = self._stayed_or_fell(previous, candidate)
                if self.bounce_seen:
                    self._stayed = previous | candidate
        if self.quiet < self.config.settle_frames:
            self._quiet_frame = image if not gate.moving else None
            return []
        if self._quiet_frame is not None and self._noise_changed():
            # The camera's noise changed since it was measured (its gain follows the
            # room's light): measure it again, on this frame and the quiet one before.
            self._measure_noise(self._quiet_frame, image)
        self._quiet_frame = None
        self.state = "still"
        self.still_count = 0
        read = self._light_taken_in if self._light_jumped(seen) else self._read_settle
        return self._settle(frame.name, lambda: self._frame_on_grid(image, small), read)

    def process_still(self, frame: Frame) -> list[Event]:
        """A photo of a settled scene (a folder of separate photos rather than video): the
        first is the empty board, every later one is compared at once. No bounce-outs:
        a photo cannot show a dart falling."""
        require_size(frame, self.calibration.image_size, "the calibration's")
        self._timestamp = frame.timestamp
        image = frame.image
        small = downscale(image, self.config.gate_width)
        if self.state == "warmup":
            self._start(image, small)
            return []
        self.bounce_seen = False
        return self._settle(frame.name, lambda: self._photo_on_grid(image), self._read_settle)

    def _settle(
        self,
        name: str,
        on_grid: Callable[[], tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]],
        read: Callable[[str, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]], list[Event]],
    ) -> list[Event]:
        """Read a settle with ``read`` once ``on_grid()`` put its picture onto the empty
        board's grid (the picture, its small picture and their ``_changed_small``). Should
        either fail (a bug), a :class:`SettleError` says so: a failure before the picture is
        on the grid leaves the detector as if this settle never happened, one after it goes
        on from that picture (``_read_settle``)."""
        before = self._settle_state()
        try:
            image, small, change = on_grid()
        except Exception as exc:
            self._restore(before)
            raise SettleError(name, exc) from exc
        return read(name, image, small, change)

    def _light_jumped(self, small: np.ndarray) -> bool:
        """Whether the room's light jumped during this motion (a lamp switched on or off, a
        camera that set its exposure anew): the motion gate's picture (``small``) nearly all
        brighter, or darker, by one ratio than in the last still frame before the motion.
        Clipped pixels say nothing; a person in front changes only part of the picture; a
        light that rose slowly before (never motion) is the light field's business."""
        before = self._before_motion
        if before is None or before.shape != small.shape:
            return False
        seen = (small < SATURATED) & (before < SATURATED)
        if np.count_nonzero(seen) < seen.size // 4:
            return False
        ratio = (small[seen] + 4.0) / (before[seen] + 4.0)
        low, middle, high = np.percentile(ratio, (10, 50, 90))
        brighter = middle >= 1.0 + EXPOSURE_STEP and low >= 1.0 + EXPOSURE_STEP / 2
        darker = middle <= 1.0 - EXPOSURE_STEP and high <= 1.0 - EXPOSURE_STEP / 2
        return bool(brighter or darker)

    def _light_taken_in(
        self,
        name: str,
        image: np.ndarray,
        small: np.ndarray,
        change: tuple[np.ndarray, np.ndarray],
    ) -> list[Event]:
        """A settle after the light jumped (``_light_jumped``): the shadows of every earlier
        dart and piece lighten, deepen, appear or go, each in a shape much like a dart's,
        and none of that is a dart. What is there now becomes the scene and no new dart is
        looked for (one thrown at that very moment is not seen: the players are told, and
        enter it), but darts pulled in the same motion are: those no longer seen are
        forgotten, and all of them gone is the takeout (else the next throw there would be
        taken for it, and the empty board's picture would hold that dart)."""
        del change
        self.light_jumped_at = self._timestamp
        self._blocked_earlier = self.blocked_since = None
        if not self.darts:
            # the empty board in the new light: the old one's prediction is off by about
            # the threshold (see _light_around), all over the next turn
            self._take_as_empty(image, small)
            return []
        kept = [known for known in self.darts if self._there_after_the_light_jumped(known, image)]
        if not kept:
            self.darts = []
            self._take_as_empty(image, small)
            return [TakeoutEvent(name)]
        self.darts = kept
        self.scene = image.copy()
        self.scene_small = small.copy()
        return []

    def _frame_on_grid(
        self, image: np.ndarray, small: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """A settled video frame put onto the empty board's grid, following the board or
        camera if it moved, with its small picture and ``_changed_small``."""
        raw = image
        image, small = self._in_reference_grid(image, small)
        return self._follow_a_move(raw, image, small)

    def _photo_on_grid(
        self, image: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """A photo put onto the empty board's grid and into its white balance, with its
        small picture and ``_changed_small``, its thresholds measured."""
        assert self.reference is not None
        image = balanced_like(self._aligned(image), self.reference)
        small = downscale(image, self.config.gate_width)
        assert self.scene_small is not None
        gain = gain_field(small, self.scene_small, 31)
        self._measure_noise_against_scene(image, small, gain)
        # the change map needs the small threshold just measured
        change = self._changed_small(small, gain)
        # A photo is taken because something happened: what changed on its own small
        # picture stands for where a dart stayed (video sees that in the motion), thin lines
        # included (the cross of flights of a dart seen along its axis is such lines).
        self._stayed = self._thin_changes(small, gain) != 0
        self._stayed_share = PHOTO_STAYED_SHARE
        return image, small, change

    def _read_settle(
        self,
        name: str,
        image: np.ndarray,
        small: np.ndarray,
        change: tuple[np.ndarray, np.ndarray],
    ) -> list[Event]:
        """``_settled``, and should that fail (a bug), the detector goes on from this
        picture (see ``_take_as_seen``) and says so with a :class:`SettleError`."""
        before = self._settle_state()
        try:
            return self._settled(name, image, small, change)
        except Exception as exc:
            self._restore(before)
            self._take_as_seen(image, small)
            raise SettleError(name, exc) from exc

    def _settle_state(self) -> dict[str, object]:
        """What reading a settle may change, to be put back if it fails half-way. The
        pictures are replaced, never changed in place: keeping them costs no copy."""
        return {name: getattr(self, name) for name in SETTLE_STATE}

    def _restore(self, state: dict[str, object]) -> None:
        self._put_back(state)
        self._forget_reference_pictures()

    def _put_back(self, state: dict[str, object]) -> None:
        """The state of ``_settle_state`` as it was (the pictures made from the empty board
        for measuring moves are left: the same empty board is put back)."""
        for name, value in state.items():
            setattr(self, name, value)

    def _take_as_seen(self, image: np.ndarray, small: np.ndarray) -> None:
        """A settle on the empty board's grid that could not be read (a bug): what is there
        now becomes the scene the next change is judged against, and darts no longer seen
        are forgotten (when none is left, the picture is the empty board, as after a
        takeout). Otherwise the unread change stays in every later look: reported with the
        next throw in that throw's place, or failing again at every settle for the rest of
        the game."""
        kept = self._darts_still_seen(image, small)
        emptied = bool(self.darts) and not kept
        self.darts = kept
        if emptied:
            self._take_as_empty(image, small)
        else:
            self.scene = image.copy()
            self.scene_small = small.copy()

    def _darts_still_seen(self, image: np.ndarray, small: np.ndarray) -> list[KnownDart]:
        """The known darts that still show in ``image`` (see ``_still_there``)."""
        assert self.reference_small is not None
        h, w = image.shape[:2]
        gain = gain_field(small, self.reference_small.astype(np.uint8), 31)
        gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
        return [known for known in self.darts if self._still_there(known, image, gain)]

    def _there_after_the_light_jumped(self, known: KnownDart, image: np.ndarray) -> bool:
        """Whether a known dart is still there in a settle after the light jumped: as for a
        dart within a change (``_not_pulled``), by its pixels' change to the last scene and
        to the empty board, each put into the new light by the ratio measured right around
        the dart (``_light_around``). Comparing the two keeps what both get wrong alike out
        of the answer: the light's ratio, the camera's compression of sharp edges. Kept when
        that cannot be told (a missed takeout costs less than a false one)."""
        assert self.scene is not None and self.reference is not None
        ys, xs = known.ys, known.xs
        ratios = self._light_around(known, image)
        if ratios is None:
            return True
        lit_pictures = []
        for stored, ratio in zip((self.scene, self.reference), ratios, strict=True):
            pixels = stored[ys, xs][None]
            lit_pictures.append((pixels, scaled(pixels, np.full(pixels.shape[:2], ratio))))
        (scene_px, scene_lit), (empty_px, empty_lit) = lit_pictures
        now = image[ys, xs][None]
        d_scene = clipped_absdiff(now, scene_lit, scene_px)[0].astype(np.float32)
        d_ref = clipped_absdiff(now, empty_lit, empty_px)[0].astype(np.float32)
        earlier = max_channel_absdiff(scene_lit, empty_lit)[0].astype(np.float32)
        # A pixel the camera now clips says nothing: in a light twice as bright, a pale dart
        # and the board behind it both show at the brightest.
        told = (now[0] < SATURATED).any(axis=-1) if now.ndim == 3 else now[0] < SATURATED
        if np.count_nonzero(told) < MIN_SHOWN_PIXELS:
            return True
        return _not_pulled(d_scene[told], d_ref[told], earlier[told], self.threshold)

    def _light_around(self, known: KnownDart, image: np.ndarray) -> tuple[float, float] | None:
        """The light's ratio of ``image`` to the last scene and to the empty board on the
        board right around a known dart (a band a few pixels wide beyond its own pixels,
        where the two stored pictures agree: no earlier dart or shadow there, which the
        switched lamp may have lit or darkened; pixels the camera clipped, and dark ones
        whose ratio its offset and noise move, left out), or None where too little of it
        shows. The field of ``gain_field`` is smoothed over a wide window and drawn towards
        what the camera clipped (a small picture's pixel half clipped is not clipped):
        after the light jumped it can be off by the threshold at the dart."""
        assert self.scene is not None and self.reference is not None
        h, w = image.shape[:2]
        x0, y0, x1, y1 = known.box
        pad = BAND_AROUND_PX + 3
        x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
        own = np.zeros((y1 - y0, x1 - x0), np.uint8)
        inside = (known.ys >= y0) & (known.ys < y1) & (known.xs >= x0) & (known.xs < x1)
        own[known.ys[inside] - y0, known.xs[inside] - x0] = 1
        near = cv2.dilate(own, np.ones((7, 7), np.uint8)) > 0
        band = (cv2.dilate(own, np.ones((2 * pad + 1, 2 * pad + 1), np.uint8)) > 0) & ~near
        scene, empty = self.scene[y0:y1, x0:x1], self.reference[y0:y1, x0:x1]
        band &= max_channel_absdiff(scene, empty) <= self.threshold
        now = image[y0:y1, x0:x1][band].astype(np.float32)
        ratios = []
        for stored in (scene, empty):
            before = stored[band].astype(np.float32)
            # The brighter half of the band: the camera's offset and noise move the ratio
            # of dark pixels most (a fixed floor left none in a dim picture).
            unclipped = (now < SATURATED) & (before < SATURATED)
            if np.count_nonzero(unclipped) < 30:
                return None
            seen = unclipped & (before >= max(8.0, float(np.median(before[unclipped]))))
            if np.count_nonzero(seen) < 15:
                return None
            ratios.append(float(np.median(now[seen] / before[seen])))
        return ratios[0], ratios[1]

    def _take_as_empty(self, image: np.ndarray, small: np.ndarray) -> None:
        """``image`` (with its ``small`` picture) is the empty board, and the scene (one and
        the same picture, until another is taken as the scene): the pictures made from the
        one before are made again when needed."""
        # A picture remade (``_remake_stored``) is only as the camera would now see it:
        # frames taken since agree better with each other than with it.
        kept = self.reference is not None and not self._reference_remade
        if kept and self.reference_small is not None:
            self._empty_before = (self.reference, self.reference_small)
        else:
            self._empty_before = None
        self._reference_remade = False
        self.reference = image.copy()
        self.reference_small = small.astype(np.float32)
        self._reference_slope = None
        self._forget_reference_pictures()
        self.scene = self.reference
        self.scene_small = small.copy()

    def _aligned(self, image: np.ndarray) -> np.ndarray:
        """Photos taken one by one: the camera may have moved a little between them (a
        tripod touched, a phone held in the hand). Undo that against the empty-board photo:
        a shift, or a homography when the camera also turned (see ``vision.align``)."""
        grey = high_pass(image)
        shift = self._estimate_shift(image, grey)
        assert self._reference_half is not None
        start = shift or (0.0, 0.0)
        homography = refine_homography(self._reference_half, half(grey), start)
        if (
            homography is not None
            and turned_px(homography, start, self._board_corners_px) > TURN_PX
        ):
            assert self.reference is not None
            self._turned = True
            return warp_back(image, homography, self.reference)
        if shift is None or math.hypot(*shift) < 0.05:
            return image
        self._shifted = True
        return self._undo_shift(image, shift, self.reference)

    def _estimate_shift(
        self, image: np.ndarray, grey: np.ndarray | None = None
    ) -> tuple[float, float] | None:
        """How far (px) the picture moved against the empty board, or None if it cannot be
        told (a person in front, a different scene). Both pictures are high-passed first:
        the light changes and new darts are there, and both would pull the estimate by a
        tenth of a pixel."""
        if grey is None:
            grey = high_pass(image)
        reference, window = self._reference_high_passed()
        return measure_shift(reference, grey, window)

    def _a_move_may_explain(
        self,
        raw: np.ndarray,
        small: np.ndarray,
        changed: np.ndarray,
        edged: np.ndarray | None,
        spread: float,
    ) -> bool:
        """A first look: whether a shift or a turn measured roughly on the small pictures
        (about 3 ms, against 40-70 ms for the search proper) may explain the change. Most
        settles that get this far are a dart and its shadows on a board with printed edges
        in few tiles, where no new move comes up at all; a move that does is undone on the
        frame (5-10 ms) and judged as the search proper judges it. The rough move is good to
        about a tenth of a pixel, which is what the change on the small pictures can show."""
        assert self.reference_small is not None
        scale = self._scale
        if self._reference_small_grey is None:
            self._reference_small_grey = high_pass_grey(self.reference_small, scale)
        reference = self._reference_small_grey
        if self._window_small is None:
            self._window_small = cv2.createHanningWindow(reference.shape[::-1], cv2.CV_32F)
        picture = high_pass_grey(downscale(raw, self.config.gate_width), scale)
        shift = measure_shift(reference, picture, self._window_small, scale)
        moves = self._moves(reference, picture, shift, scale)
        judged = (changed, edged, spread, ROUGH_MOVE_SHARE)
        return any(True for _ in self._explaining(raw, small, moves, judged))

    def _explaining(
        self,
        raw: np.ndarray,
        small: np.ndarray,
        moves: Iterable[tuple[tuple[float, float], np.ndarray | None]],
        judged: tuple[np.ndarray, np.ndarray | None, float, float],
    ) -> Iterator[
        tuple[int, tuple[tuple[float, float], np.ndarray | None], np.ndarray, np.ndarray]
    ]:
        """Of ``moves``, those that explain the change once undone (``judged``: the changed
        small picture, the tiles with printed edges, the share of them changed and the share
        of ``_explains``), each with the pixels still changed, the frame and its small
        picture on the empty board's grid."""
        changed, edged, spread, share = judged
        for move in moves:
            moved, moved_small = self._in_reference_grid(raw, small, move)
            left = self._changed_small(moved_small)[1]
            if _explains(changed, left, edged, spread, share):
                yield np.count_nonzero(left), move, moved, moved_small

    def _reference_high_passed(self) -> tuple[np.ndarray, np.ndarray]:
        """The empty board high-passed (made once per empty board), with the window for
        phase correlation at its size; its half-size picture is made with it."""
        assert self.reference is not None
        if self._reference_grey is None or self._window is None:
            self._reference_grey = high_pass(self.reference)
            self._reference_half = half(self._reference_grey)
            self._window = cv2.createHanningWindow(self._reference_grey.shape[::-1], cv2.CV_32F)
        return self._reference_grey, self._window

    def _forget_reference_pictures(self) -> None:
        """The empty board changed (a new one, or remade after a refocus): the pictures made
        from it for measuring moves are made again when next needed."""
        self._reference_grey = self._reference_half = self._reference_small_grey = None

    def _undo_shift(
        self, image: np.ndarray, shift: tuple[float, float], fill: np.ndarray
    ) -> np.ndarray:
        """``image`` moved back by ``shift`` onto the empty board's (and the calibration's)
        pixel grid; the strip the shift uncovered holds no picture, and takes ``fill``'s."""
        dx, dy = shift
        h, w = image.shape[:2]
        # bicubic: sharp enough for printed edges, and five times faster than Lanczos
        out = shift_back(image, shift)
        bx, by = math.ceil(abs(dx)) + 1, math.ceil(abs(dy)) + 1
        sides = [(slice(None), slice(0, bx)), (slice(None), slice(w - bx, w))]
        sides += [(slice(0, by), slice(None)), (slice(h - by, h), slice(None))]
        for rows, cols in sides:
            out[rows, cols] = fill[rows, cols]
        return out

    def _in_reference_grid(
        self,
        image: np.ndarray,
        small: np.ndarray,
        move: tuple[tuple[float, float], np.ndarray | None] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """A video frame on the empty board's pixel grid, once the board or camera moved (by
        ``move``: a shift, and the homography when it also turned; the move measured so far
        unless given), and in its white balance (a webcam or a phone's stream may set it
        anew, above all after a person in front filled the picture with other colours)."""
        assert self.scene is not None
        shift, turn = (self.camera_shift_px, self._camera_turn) if move is None else move
        # Where the frame holds no picture, the last scene's stands in: the latest picture
        # there, in the room's light now (the empty board's may be of another light).
        if turn is not None:
            image = warp_back(image, turn, self.scene)
            small = downscale(image, self.config.gate_width)
        elif shift != (0.0, 0.0):
            image = self._undo_shift(image, shift, self.scene)
            small = downscale(image, self.config.gate_width)
        if self._soften_px > 0:
            image = cv2.GaussianBlur(image, (0, 0), self._soften_px)
            small = downscale(image, self.config.gate_width)
        balanced = balanced_like(image, self.reference)
        if balanced is image:
            return image, small
        return balanced, downscale(balanced, self.config.gate_width)

    @property
    def _resampled(self) -> bool:
        """Whether the pictures compared may have been resampled onto the empty board's grid
        at a phase that differs across the picture or from one picture to the next: photos
        turned back by a homography (a camera held in the hand) or shifted back by a fraction
        of a pixel (a tripod touched: each photo at its own phase, and the empty board at none,
        so thin printed lines ripple along their length where the phases beat), or video
        frames after the board or camera moved."""
        return self._turned or self._shifted or self._moved

    @property
    def _moved(self) -> bool:
        """Whether video frames are put back onto the empty board's grid (it moved)."""
        return self._camera_turn is not None or self.camera_shift_px != (0.0, 0.0)

    @property
    def camera_move_px(self) -> float:
        """How far (px) the board moved in the picture since the empty board was taken: the
        most that any of its corners moved."""
        if self._camera_turn is None:
            return math.hypot(*self.camera_shift_px)
        return apart_px(self._camera_turn, np.eye(3), self._board_corners_px)

    def _small_in_reference_grid(self, small: np.ndarray) -> np.ndarray:
        """The gate's small picture on the empty board's grid (cheap: it is small)."""
        if not self._moved:
            return small
        h, w = small.shape[:2]
        to_small = np.diag([1 / self._scale, 1 / self._scale, 1.0])
        if self._camera_turn is not None:
            turn = to_small @ self._camera_turn @ np.linalg.inv(to_small)
            flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
            return cv2.warpPerspective(
                small, turn, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE
            )
        dx, dy = (v / self._scale for v in self.camera_shift_px)
        back = np.float32([[1, 0, -dx], [0, 1, -dy]])
        return cv2.warpAffine(small, back, (w, h), borderMode=cv2.BORDER_REPLICATE)

    def _follow_a_move(
        self, raw: np.ndarray, image: np.ndarray, small: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """Pulling darts moves a hanging board, and a knock moves the camera: then every
        printed edge changes at once, all over the picture, which no dart does. Measure the
        move (a shift, or a homography when the board or camera also turned), and keep it if
        it explains the change; from then on every frame is put back onto the empty board's
        grid, so the calibration and the stored frames still fit. Returns the frame and its
        small picture as they are compared from now on, with their ``_changed_small`` (which
        the settle needs too)."""
        change = self._changed_small(small)
        assert self.reference_small is not None
        edged = _edge_tiles(self.reference_small, self.small_threshold)
        hit, among = _tiles_hit(change[1], edged)
        spread = hit / among
        if spread < MOVED_SPREAD or hit < MOVED_TILES:
            # A dart and its shadow change a few tiles: on a board with printed edges in few
            # tiles that may be a quarter of them, and no move is worth looking for.
            return image, small, change
        if self._a_move_may_explain(raw, small, change[1], edged, spread):
            grey = high_pass(raw)
            shift = self._estimate_shift(raw, grey)
            assert self._reference_half is not None
            # The move that leaves the least changed, of those that explain the change: a
            # shift may explain most of a turn's change, but not all of it.
            moves = self._moves(self._reference_half, half(grey), shift, 2.0)
            judged = (change[1], edged, spread, 1.0)
            best = min(
                self._explaining(raw, small, moves, judged), key=lambda e: e[0], default=None
            )
            if best is not None:
                _left, move, moved, moved_small = best
                self.camera_shift_px, self._camera_turn = move
                self._resample_stored(move)
                return moved, moved_small, self._changed_small(moved_small)
        refocused = self._follow_a_refocus(raw, image, change[1], edged, spread)
        if refocused is not None:
            return refocused
        return image, small, change  # no move explains what changed

    def _focus_window(self, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        """A square of FOCUS_WINDOW_PX around the board's middle in the picture (x0, y0, x1, y1)."""
        h, w = shape[:2]
        cx, cy = self._board_corners_px.mean(axis=0)
        half_side = FOCUS_WINDOW_PX // 2
        x0 = int(np.clip(cx - half_side, 0, max(0, w - FOCUS_WINDOW_PX)))
        y0 = int(np.clip(cy - half_side, 0, max(0, h - FOCUS_WINDOW_PX)))
        return x0, y0, min(w, x0 + FOCUS_WINDOW_PX), min(h, y0 + FOCUS_WINDOW_PX)

    def _focus_greys(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``image`` and the last scene as grey pictures (float32) of the window on the
        middle of the board where their focus is compared: printed edges are there, and it
        is a sixth of the picture's work."""
        assert self.scene is not None
        x0, y0, x1, y1 = self._focus_window(image.shape)
        now, before = (
            cv2.cvtColor(picture[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
            for picture in (image, self.scene)
        )
        return now, before

    def _follow_a_refocus(
        self,
        raw: np.ndarray,
        image: np.ndarray,
        changed: np.ndarray,
        edged: np.ndarray | None,
        spread: float,
    ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]] | None:
        """A camera that focuses by itself (a webcam, a phone) may focus anew, and then every
        printed edge changes at once, as when the board moves. Find the blur that makes the
        sharper side of the last scene and ``image`` (this frame on the grid) look like the
        other, on high-passed grey pictures (the light does not count there), and keep it if
        it explains the change: the stored pictures are blurred by it when the camera now
        sees blurrier, later frames when it sees sharper. None if no blur explains it."""
        assert self.scene is not None and self.reference is not None
        sigma = matching_blur(*self._focus_greys(image))
        if sigma == 0.0:
            return None
        stored = self._settle_state()
        soften = self._soften_px
        if sigma > 0:  # the camera sees blurrier now: so must the stored pictures
            self._remake_stored(lambda picture: cv2.GaussianBlur(picture, (0, 0), sigma))
        else:  # sharper: every frame from now on is blurred to the stored pictures' focus
            self._soften_px = math.hypot(soften, sigma)
        moved, moved_small = self._in_reference_grid(raw, downscale(raw, self.config.gate_width))
        change = self._changed_small(moved_small)
        if _explains(changed, change[1], edged, spread):
            self._forget_reference_pictures()
            return moved, moved_small, change
        self._put_back(stored)
        return None

    def _resample_stored(self, move: tuple[tuple[float, float], np.ndarray | None]) -> None:
        """The empty board and the last scene as a camera would see them after ``move``, put
        back onto the grid as its frames are from now on. Putting a frame back loses a little
        sharpness at every printed edge, by an amount that depends on where between pixels
        its samples fall (with a turn, that differs across the picture); a picture kept
        sharp would differ from every such frame along every edge. The camera's own view
        after the move is sharp: it is made with a nearly lossless resampling (Lanczos)."""
        assert self.reference is not None and self.scene is not None
        shift, turn = move
        h, w = self.reference.shape[:2]
        ahead = turn if turn is not None else shift_matrix(shift)
        flags = cv2.INTER_LANCZOS4

        def through(picture: np.ndarray) -> np.ndarray:
            seen = cv2.warpPerspective(
                picture, ahead, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE
            )
            return warp_back(seen, turn, picture) if turn is not None else shift_back(seen, shift)

        self._remake_stored(through)

    def _remake_stored(self, remade: Callable[[np.ndarray], np.ndarray]) -> None:
        """The empty board and the last scene (and their small pictures) as ``remade``
        makes them: as the camera now sees them."""
        assert self.reference is not None and self.scene is not None
        gate_width = self.config.gate_width
        scene_is_reference = self.scene is self.reference
        self.reference = remade(self.reference)
        self.reference_small = downscale(self.reference, gate_width).astype(np.float32)
        self.scene = self.reference if scene_is_reference else remade(self.scene)
        self.scene_small = downscale(self.scene, gate_width)
        self._reference_remade = True
        # Not remade: one more picture to resample, for the sake of one settle.
        self._empty_before = None

    def _moves(
        self,
        reference: np.ndarray,
        picture: np.ndarray,
        shift: tuple[float, float] | None,
        scale: float,
    ) -> Iterator[tuple[tuple[float, float], np.ndarray | None]]:
        """The moves that may explain a change all over the picture (``picture``: its
        high-passed picture made ``scale`` times smaller, ``reference`` the empty board's
        likewise, ``shift`` as measured), cheapest first, each unlike the move already
        followed: a shift, then a homography (refined from the shift, or from none: turned
        by a degree, the picture may not correlate as a shift)."""
        corners = self._board_corners_px
        followed = (
            self._camera_turn
            if self._camera_turn is not None
            else shift_matrix(self.camera_shift_px)
        )

        def new(homography: np.ndarray) -> bool:
            return apart_px(homography, followed, corners) >= 0.3

        if shift is not None and new(shift_matrix(shift)):
            yield shift, None
        start = shift or (0.0, 0.0)
        homography = refine_homography(reference, picture, start, scale)
        if homography is None or turned_px(homography, start, corners) <= TURN_PX:
            return  # no turn: the shift said it all
        if new(homography):
            middle = cv2.perspectiveTransform(corners.mean(axis=0).reshape(1, 1, 2), homography)
            at = middle.reshape(2) - corners.mean(axis=0)
            yield (float(at[0]), float(at[1])), homography

    def _changed_small(
        self, small: np.ndarray, gain: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The light ratio to the last scene (``gain`` if already known), and where the small
        picture changed against it beyond that light (specks of a pixel removed)."""
        assert self.scene_small is not None
        if gain is None:
            gain = gain_field(small, self.scene_small, 31)
        changed = self._over_threshold(small, gain)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((2, 2)))
        return gain, changed

    def _over_threshold(self, small: np.ndarray, gain: np.ndarray) -> np.ndarray:
        """Where the small picture differs from the last scene, in ``gain``'s light, by more
        than the measured threshold (0/1, specks and all)."""
        assert self.scene_small is not None
        over = np.abs(small.astype(np.float32) - lit(self.scene_small, gain)) > self.small_threshold
        return over.astype(np.uint8)

    def _thin_changes(self, small: np.ndarray, gain: np.ndarray) -> np.ndarray:
        """Where the small picture changed in lines a pixel wide: over-threshold pixels with
        an over-threshold neighbour (a lone speck of noise has none). The opening in
        ``_changed_small`` removes such lines, and with them the only trace of some darts: one
        that landed along an earlier dart and shows only the thin rims that stick out of it,
        or one as bright as the board behind it in grey, which changes only along its
        outline."""
        over = self._over_threshold(small, gain)
        support = cv2.boxFilter(over, cv2.CV_16U, (3, 3), normalize=False)
        return over & (support >= 2).astype(np.uint8)

    # --- phases ---------------------------------------------------------------------------
    def _warmup(self, image: np.ndarray, small: np.ndarray, seen: np.ndarray) -> list[Event]:
        """The first frames: the empty board is the first that ends ``settle_frames`` still
        ones in a row. Whether they were still is judged anew on the gate's pictures
        (``seen``) once the gate knows the camera's noise: before, a nearly repeated first
        frame makes its level too low and the next still frame seem to move, and the warmup
        would start over while the first dart may already be on its way."""
        previous, self._previous = self._previous, image
        self._warm_seen.append(seen)
        if previous is None:
            return []
        if not self.gate.learned and not self._warm_frozen():
            return []
        self.quiet = 0
        for newer, older in itertools.pairwise(reversed(self._warm_seen)):
            if not self.gate.still_between(older, newer):
                break
            self.quiet += 1
        if self.quiet < self.config.settle_frames:
            return []
        self.gate.learn_from(self._warm_seen)
        self._measure_noise(previous, image)
        self._start(image, small)
        return []

    def _warm_frozen(self) -> bool:
        """Whether the warmup's last pictures are all the same, bit for bit (a camera
        without noise, or a stream resending its last picture): still, though the gate,
        which learns nothing from a repeated picture, knows no noise level yet."""
        seen = self._warm_seen
        return len(seen) == seen.maxlen and all(
            np.array_equal(a, b) for a, b in itertools.pairwise(seen)
        )

    def _start(self, image: np.ndarray, small: np.ndarray) -> None:
        self._scale = image.shape[1] / small.shape[1]
        h, w = image.shape[:2]
        self._mm_per_px = self.calibration.mm_per_pixel((w / 2, h / 2))
        # the tip fit works at about a pixel per millimetre (see _fit)
        self._canonical = max(1, int(0.9 / self._mm_per_px))
        self._take_as_empty(image, small)
        self._previous = None
        self.state = "still"

    def _measure_noise_against_scene(
        self, image: np.ndarray, small: np.ndarray, gain: np.ndarray
    ) -> None:
        """Separate photos: no two still frames to measure the noise on, and each photo has
        its own noise and compression. Measure it on this photo's light-corrected difference
        to the last one, where most of the picture did not change; the statistics are the
        ones the video path uses on two still frames. ``gain``: the light ratio of the small
        picture to the last scene's."""
        assert self.scene is not None and self.scene_small is not None
        # Every other pixel of every other row: the noise of single pixels, a quarter of the work.
        photo, scene = image[::2, ::2], self.scene[::2, ::2]
        h, w = photo.shape[:2]
        gain_here = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
        diff = max_channel_absdiff(photo, scaled(scene, gain_here)).astype(np.float32)
        med = float(np.median(diff[::2, ::2]))
        spread = robust_sigma(diff[::2, ::2])
        # Printed edges change wherever the photos still miss each other by a fraction of a
        # pixel (and compression rings there): allow for that change, in proportion to the
        # edge's slope, rather than raise the threshold everywhere to the edges' level.
        if self._reference_slope is None:
            assert self.reference is not None
            self._reference_slope = edge_strength(self.reference)
        slope = self._reference_slope
        miss = misregistration_px(diff, slope[::2, ::2], spread)
        self._allowance = slope * miss if miss > 0 else None
        if self._allowance is not None:
            diff = np.maximum(diff - self._allowance[::2, ::2], 0.0)
        tail = tiled_quantile(diff, 0.999)
        self.threshold = max(
            self.config.min_threshold, med + self.config.k_sigma * spread, 1.1 * tail
        )
        self.noise_sigma = spread
        self.small_threshold = self._small_threshold_from(small - lit(self.scene_small, gain))

    def _measure_noise(self, a: np.ndarray, b: np.ndarray) -> None:
        diff = max_channel_absdiff(a, b)
        flat = diff.reshape(-1)[:: max(1, diff.size // 200000)].astype(np.float32)
        med = float(np.median(flat))
        spread = MAD_TO_SIGMA * float(np.median(np.abs(flat - med)))
        # Gaussian-like noise: median + k robust sigmas; blocky (JPEG) noise has heavier
        # tails, which the far quantile catches.
        tail = float(np.quantile(flat, 0.999))
        self.threshold = max(
            self.config.min_threshold, med + self.config.k_sigma * spread, 1.1 * tail
        )
        self.noise_sigma = spread
        if self._gate_on_preview:
            # The gate measured the preview's noise, on its own grey scale: measure it as
            # the gate does on the small pictures the detector compares (the frame's).
            width = self.config.gate_width
            self.small_threshold = self._small_threshold_from(
                downscale(a, width) - downscale(b, width)
            )
        else:
            self.small_threshold = max(6.0, 2.0 * self.gate.threshold)
        self._measured_at_sigma = self.gate.sigma

    def _small_threshold_from(self, difference: np.ndarray) -> float:
        """The small pictures' change threshold from a ``difference`` of two of them that
        holds only noise: as the motion gate measures its level (the difference less its
        local mean), doubled as the video path does with the gate's own."""
        local = local_change(difference)
        gate = max(self.gate.floor, 1.5 * tiled_quantile(local, 0.999))
        return max(6.0, 2.0 * gate)

    def _noise_changed(self) -> bool:
        """Whether the motion gate's noise level moved by half or more since the thresholds
        were measured."""
        now, then = self.gate.sigma, self._measured_at_sigma
        if now is None or then is None:
            return False
        return max(now, then) >= LOUDER * min(now, then)

    def _track_light(self, image: np.ndarray, small: np.ndarray) -> None:
        """Nothing moved for a while: take the current frame as the scene if it shows nothing
        new (only light), so slow light changes never pile up into a difference."""
        assert self.scene_small is not None
        gain = gain_field(small, self.scene_small, 31)
        diff = np.abs(small.astype(np.float32) - lit(self.scene_small, gain))
        if np.count_nonzero(diff > self.small_threshold) <= 2:
            self.scene = image.copy()
            self.scene_small = small.copy()

    def _dart_like_small(self, small: np.ndarray) -> np.ndarray | None:
        """Cheap look, during the motion, for dart-sized new things (a dart that may fall):
        their mask, or None. None too while a person or an arm is in the picture: the parts
        of a body that differ from the board come apart into dart-sized pieces, and a body
        standing still would pass for a dart that stayed put."""
        assert self.scene_small is not None and self.reference_small is not None
        f = small.astype(np.float32)
        t = self.small_threshold
        # After the board moved, the small picture is shifted back by a fraction of its
        # pixel, which leaves printed edges a little off: compare with each pixel's 3 x 3
        # neighbourhood there, not with the pixel alone.
        reach = 1 if self._moved else 0
        changed = _outside(f, self.scene_small, t, reach)
        if np.count_nonzero(changed) < 3:
            return None
        # The light may be changing: compare after the smooth light correction.
        gain = gain_field(small, self.scene_small, 31)
        new = _outside(f, lit(self.scene_small, gain), t, reach) & _outside(
            f, lit(self.reference_small, gain), t, reach
        )
        if np.count_nonzero(new) < 3:
            return None
        count, labels, stats, _ = cv2.connectedComponentsWithStats(new.astype(np.uint8), 8)
        h, w = small.shape[:2]
        mm = self._mm_per_px * self._scale
        keep = []
        for i in range(1, count):
            x, y, bw, bh, area = stats[i]
            area_mm2 = area * mm * mm
            if area_mm2 > self.config.max_dart_mm2:
                return None  # a person: the pieces of a body or an arm look dart-like
            # within a pixel or two of the border counts as reaching it: a camera's or lens
            # correction's edge columns may not show what is there
            edge = BORDER_SMALL_PX
            if x <= edge or y <= edge or x + bw >= w - edge or y + bh >= h - edge:
                if area_mm2 >= self.config.min_dart_mm2:
                    return None  # an arm from outside the picture, and pieces of it
                continue
            length_mm = math.hypot(bw, bh) * mm
            if area_mm2 < self.config.min_dart_mm2:
                continue
            if length_mm >= self.config.min_dart_mm:
                keep.append(i)
        if len(keep) > MAX_FALLING_PIECES:
            # A throw brings one dart, which its barrel may cut in two: dart-like pieces all
            # over the picture are something else (the camera setting its exposure anew).
            return None
        return np.isin(labels, keep) if keep else None

    def _stayed_or_fell(self, previous: np.ndarray, current: np.ndarray) -> bool:
        """The same dart-like blob in two frames: overlapping, or of about the same size
        and moved down the board (gravity), by no more than a few of its own lengths."""
        overlap = np.count_nonzero(current & previous)
        smaller = min(np.count_nonzero(current), np.count_nonzero(previous))
        if overlap >= STAYED_SHARE * smaller:
            return True
        before, after = _blobs(previous), _blobs(current)
        for area_a, (xa, ya), length_a in before:
            for area_b, (xb, yb), length_b in after:
                if not 0.5 <= area_b / area_a <= 2.0:
                    continue
                move = np.array([xb - xa, yb - ya])
                distance = float(np.linalg.norm(move))
                if distance > 3.0 * max(length_a, length_b):
                    continue
                down = self._down_small((xa, ya))
                if float(move @ down) >= 0.7 * distance > 0:
                    return True
        return False

    def _down_small(self, point: tuple[float, float]) -> np.ndarray:
        """Image direction (gate image) of down the board (its picture is upright)."""
        s = self._scale
        u, v = point[0] * s, point[1] * s
        here = self.calibration.image_to_board(np.array([[u, v]]))[0]
        below = self.calibration.board_to_image(np.array([here + np.array([0.0, 20.0])]))[0]
        d = below - (u, v)
        n = float(np.linalg.norm(d))
        return d / n if n > 1e-9 else np.array([0.0, 1.0])

    def _settled(
        self,
        name: str,
        image: np.ndarray,
        small: np.ndarray,
        change: tuple[np.ndarray, np.ndarray],
    ) -> list[Event]:
        """Decide what changed once the scene is still; ``change``: ``_changed_small(small)``."""
        assert self.scene is not None and self.reference is not None
        assert self.scene_small is not None and self.reference_small is not None
        cfg = self.config
        self.last_regions = []
        self._blocked_earlier, self.blocked_since = self.blocked_since, None
        gain_s, changed = change
        empty, empty_small = self._empty_to_judge()
        gain_r = gain_field(small, empty_small.astype(np.uint8), 31)
        f = small.astype(np.float32)
        mm_small = self._mm_per_px * self._scale
        if np.count_nonzero(changed) == 0:
            # Something moved and settled, yet nothing changed but in lines a pixel wide:
            # look there before saying nothing stayed. A change all over the picture in such
            # lines (a quarter of its tiles, as a moved board makes) is printed edges, no dart.
            thin = self._thin_changes(small, gain_s)
            edged = _edge_tiles(empty_small, self.small_threshold)
            if _tile_share(thin, edged) < MOVED_SPREAD:
                changed = thin
        if np.count_nonzero(changed) == 0:
            self.scene = image.copy()
            self.scene_small = small.copy()
            return [BounceoutEvent(name)] if self.bounce_seen else []
        # Something big that is on neither the last scene nor the empty board: somebody
        # stands in front of the board. Wait for the next settle. (Darts pulled out are on
        # the empty board, so a takeout never looks like this.)
        unlike = clipped_absdiff(f, lit(empty_small, gain_r), empty_small)
        novel = changed.astype(bool) & (unlike > self.small_threshold)
        if novel.any():
            _count, _labels, stats, _ = cv2.connectedComponentsWithStats(novel.astype(np.uint8), 8)
            biggest = int(stats[1:, cv2.CC_STAT_AREA].max())
            if biggest * mm_small * mm_small > cfg.max_dart_mm2 * 1.5:
                self._still_blocked()
                return []
        # Region of interest at full resolution around every change.
        ys, xs = np.nonzero(changed)
        s = self._scale
        h, w = image.shape[:2]
        pad = max(24, math.ceil(cfg.max_point_mm / self._mm_per_px))
        extent = max(int(xs.max() - xs.min()), int(ys.max() - ys.min())) + 1
        if extent * mm_small <= TUFT_MM:
            # No bigger than a flight tuft: a thin shaft and barrel may not show on the small
            # picture either, and the point may be a whole dart's length away.
            pad = max(pad, math.ceil(cfg.max_dart_mm / self._mm_per_px) - round(extent * s))
        box = (
            max(0, int(xs.min() * s) - pad),
            max(0, int(ys.min() * s) - pad),
            min(w, int((xs.max() + 1) * s) + pad),
            min(h, int((ys.max() + 1) * s) + pad),
        )
        gains = (
            cv2.resize(gain_s, (w, h), interpolation=cv2.INTER_LINEAR),
            cv2.resize(gain_r, (w, h), interpolation=cv2.INTER_LINEAR),
        )
        return self._look(name, image, small, (empty, gains), box)

    def _empty_to_judge(self) -> tuple[np.ndarray, np.ndarray]:
        """The empty board's picture (and its small one) a settle is compared with besides
        the last scene. Right after a takeout the last scene is the empty board's picture
        itself, and a change seen in both comparisons alike is no evidence: a photo put onto
        the grid differs from any other along every printed edge (each at its own phase,
        see ``lowpass_absdiff``), in a way no single comparison tells from a thin dart, and
        only the minimum over two different pictures takes away. Video frames are no
        different in kind: the one picture's own noise, and its compression's, stand in
        both comparisons alike. The empty board's picture from before that takeout stands
        in then, while it is on the frames' grid, and the first dart of a turn is judged
        as the others are."""
        assert self.reference is not None and self.reference_small is not None
        if self.scene is self.reference and self._empty_before is not None:
            return self._empty_before
        return self.reference, self.reference_small

    def _look(
        self,
        name: str,
        image: np.ndarray,
        small: np.ndarray,
        lit_empty: tuple[np.ndarray, tuple[np.ndarray, np.ndarray]],
        box: tuple[int, int, int, int],
        darts_seen: list[tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> list[Event]:
        """Decide what changed within ``box`` (x0, y0, x1, y1) of the full-size picture. On
        the first look, a dart whose blob or point reaches the box's edge (not the picture's) is
        looked at again in a box a whole dart's length bigger on those sides: a thin shaft
        and point may not show on the small picture, so the point can lie outside the box.
        That second look only completes the darts already seen (``darts_seen``: their pixels,
        rows and columns of the picture): what else the bigger box holds was no change at the
        coarse level, and taking it for a new dart made phantoms. ``lit_empty``: the empty
        board's picture to judge against (``_empty_to_judge``) and the light of the last
        scene and of that picture, as full-size gain fields."""
        assert self.scene is not None
        empty, gains = lit_empty
        cfg = self.config
        x0, y0, x1, y1 = box
        h, w = image.shape[:2]
        self.last_regions.append(box)
        gs = gains[0][y0:y1, x0:x1]
        gr = gains[1][y0:y1, x0:x1]
        roi = image[y0:y1, x0:x1]
        scene = scaled(self.scene[y0:y1, x0:x1], gs)
        reference = scaled(empty[y0:y1, x0:x1], gr)
        d_scene = clipped_absdiff(roi, scene, self.scene[y0:y1, x0:x1]).astype(np.float32)
        d_ref = clipped_absdiff(roi, reference, empty[y0:y1, x0:x1]).astype(np.float32)
        allowance = None if self._allowance is None else self._allowance[y0:y1, x0:x1]

        def beyond(change: np.ndarray) -> np.ndarray:
            """A change less what the photos' misregistration makes of printed edges."""
            return change if allowance is None else np.maximum(change - allowance, 0.0)

        d_scene, d_ref = beyond(d_scene), beyond(d_ref)
        t = self.threshold

        # Earlier objects (darts, pieces): none right after a takeout, where the scene is
        # the empty board itself; an older empty picture differs from it where pieces moved.
        if empty is self.reference:
            earlier = beyond(max_channel_absdiff(scene, reference))
        else:
            earlier = np.zeros_like(d_scene)

        # Darts pulled out: their pixels are back to the empty board.
        events: list[Event] = []
        remaining: list[KnownDart] = []
        elsewhere: list[KnownDart] = []
        for known in self.darts:
            inside = (known.ys >= y0) & (known.ys < y1) & (known.xs >= x0) & (known.xs < x1)
            if inside.mean() < 0.5:
                elsewhere.append(known)
                continue
            at = (known.ys[inside] - y0, known.xs[inside] - x0)
            if _not_pulled(d_scene[at], d_ref[at], earlier[at], t):
                remaining.append(known)
        # A dart away from every change did not move since the last look; if its pixels
        # are nonetheless the empty board's, it is not there (taken for a dart where little
        # of one was), and must not hold up the takeout of the others for the rest of the
        # game. Some dart must have been pulled here, though: a throw elsewhere is no takeout.
        pulled_here = len(self.darts) > len(remaining) + len(elsewhere)
        pulled_all = (
            pulled_here
            and not remaining
            and not any(self._still_there(known, image, gains[1]) for known in elsewhere)
        )
        kept = {id(known) for known in remaining + elsewhere}
        remaining = [known for known in self.darts if id(known) in kept]
        if pulled_all:
            events.append(TakeoutEvent(name))
            self.darts = []
            self._take_as_empty(image, small)
            return events
        self.darts = remaining
        known = _known_darts_mask(self.darts, box)
        flanks = _earlier_flanks(self.darts, box, known)

        evidence = np.minimum(d_scene, d_ref)
        occluders = earlier > t
        shadow = shadow_like(roi, scene, d_scene, t)
        # Over an earlier object (a dart, a magnet) a change that only darkens is the new
        # dart's shadow falling on it, not the new dart.
        evidence[occluders & shadow] = 0.0
        luma = beyond(np.minimum(luma_absdiff(roi, scene), luma_absdiff(roi, reference)))
        luma[occluders & shadow] = 0.0
        # Earlier objects without their shadows: a shadow lies on the board and cannot stand
        # in front of the new point.
        bodies = occluders & ~shadow_like(scene, reference, earlier.astype(np.float32), t)
        smooth = cv2.GaussianBlur(evidence, (3, 3), 0)
        if self._resampled:
            smooth[self._resampling_ripple(roi, scene, reference, t, beyond)] = 0.0
        new = (smooth > t * 0.8).astype(np.uint8)
        substantial = False  # something object-like changed: then it is no bounce-out
        found: list[_Candidate] = []
        pieces: list[tuple[float, TipFit, np.ndarray]] = []  # fitted but not dart-like alone
        rims: list[tuple[np.ndarray, float]] = []  # a new dart's edges along earlier darts
        # blobs fitted but taken for no dart: (fit, blob, mm per px, slenderness)
        leftovers: list[tuple[TipFit, np.ndarray, float, float]] = []
        groups = self._groups(new)
        if groups is None:
            # More pieces of change than a dart and its shadows ever make: the picture
            # changed all over in a way not followed (the camera moved or the light jumped).
            # No dart from it: wait as for somebody in front, and the tablet is told if it
            # lasts. (It also bounds the time a settle takes.)
            self._still_blocked()
            return []
        # Where each blob lies in the region: what is measured of a blob alone is measured
        # there (most blobs are small specks in a big region).
        spans = [_span(g) for g in groups]
        pixels = [_pixels_in(g, sp) for g, sp in zip(groups, spans, strict=True)]
        solids = [
            self._solid_mm2(g, shadow, (x0, y0), sp) for g, sp in zip(groups, spans, strict=True)
        ]
        is_object = [solid >= cfg.min_dart_mm2 * 0.5 for solid in solids]
        objects = _with_pixels(
            [g for g, obj in zip(groups, is_object, strict=True) if obj],
            shadow,
            [px for px, obj in zip(pixels, is_object, strict=True) if obj],
        )
        stacked = _stacked(pixels)
        mm_roi = self.calibration.mm_per_pixel(((x0 + x1) / 2, (y0 + y1) / 2))
        long_shadows = [
            g
            for g, sp, obj in zip(groups, spans, is_object, strict=True)
            if not obj and _extent_px(g, sp, shadow) * mm_roi >= cfg.long_dart_mm
        ]
        for group, span, solid, obj, (ys_g, xs_g) in zip(
            groups, spans, solids, is_object, pixels, strict=True
        ):
            middle = (float(xs_g.mean()) + x0, float(ys_g.mean()) + y0)
            mm = self._mm_at(middle)
            # a dart seen along its axis is known by its long shadow: its point is not seen
            by_shadow = not obj
            end_on = by_shadow and self._end_on(group, shadow, mm, solid, span)
            # Only darker and no dart seen end-on: a shadow (of a dart, a hand, a piece), or
            # a grey barrel cut off from its flights, which only the flights can claim.
            grey_piece = by_shadow and not end_on
            if grey_piece and len(xs_g) * mm * mm < cfg.min_dart_mm2 * 0.5:
                continue
            substantial = substantial or not grey_piece
            hint = self.out_of_board.at(middle)
            offset = np.array([x0, y0], dtype=np.float64)

            def end_test(a, b, offset=offset):
                return self.dart_geometry.tip_end(a + offset, b + offset)

            def lean(a, b, offset=offset):
                return self.dart_geometry.best_angle(a + offset, b + offset, LEAN_SPAN_MM)

            images = (evidence, (occluders, bodies), shadow, roi, scene, luma)

            def point_reach(a, direction, offset=offset, mm=mm):
                return self._longest_point_px(a + offset, direction, mm)

            tests = (end_test, lean, point_reach)
            fit = self._fit(images, group, t, hint, tests, mm)
            if fit is None:
                continue
            if grey_piece:
                sliver = self._sliver_with_flights(fit, group, objects, shadow, known, mm)
                if sliver is None:
                    pieces.append((0.0, fit, group))  # may be the body of a dart seen end-on
                    leftovers.append((fit, group, mm, 1.0))
                    continue
                fit, group = sliver
                substantial = True
                slender = fit.length_px / max(1.0, fit.width_px)
                found.append(_ranked(fit, group, shadow, mm, slender, plain=False))
                continue
            fit = self._out_of_own_shadow(fit, group, shadow, mm, offset)
            if _point_on_flank(fit, group, flanks, mm):
                pieces.append((0.0, fit, group))  # a new dart's edge along an earlier one
                rims.append((group, mm))
                continue
            dart = self._is_dart(fit, group, mm, group & shadow)
            if not dart and fit.point_seen and not fit.occluded:
                # A dart that landed right beside an earlier one, along it, is seen only
                # where it does not cover that dart (or that dart covers it): a sliver
                # with a point. Its body runs on along its own line over the earlier one.
                along = _along_earlier(fit, group, known)
                if along > fit.length_px:
                    longer = replace(fit, length_px=along)
                    if self._is_dart(longer, group, mm, group & shadow):
                        dart, fit = True, longer
            plain = dart and not by_shadow  # a dart by its own blob alone
            if not dart and self._casts_long_shadow(group, fit, long_shadows, mm):
                dart = by_shadow = True
            slender = fit.length_px / max(1.0, fit.width_px)
            if not dart and slender < cfg.min_elongation:
                pieces.append((0.0, fit, group))  # may be the body of a dart seen end-on
                leftovers.append((fit, group, mm, slender))
                continue
            # Pieces lying along this dart's line (split by an earlier dart) belong to it:
            # fit again with them. Object blobs behind its point (flights and shaft cut off
            # where it crosses an earlier dart) join it too. A thin piece too short to be a
            # dart may be the front of one whose flights were cut off.
            lined = self._along_line(group, groups, fit, stacked) if dart else group
            if lined is not group:
                refit = self._fit(images, lined, t, hint, tests, mm)
                if refit is not None:
                    fit = self._out_of_own_shadow(refit, lined, shadow, mm, offset)
                group = lined
            tailed = self._tail_pieces(group, objects, fit, shadow, mm)
            if tailed is not group:
                # The pieces lie behind the point: they tell how long the dart is, not where
                # its point is (a fit with them may walk to a worse point).
                fit = replace(fit, length_px=max(fit.length_px, _reach_px(tailed, fit)))
                dart = dart or self._is_dart(fit, tailed, mm, tailed & shadow)
                group = tailed
            if not dart:
                leftovers.append((fit, group, mm, slender))
                continue
            if only_sharpness(group, _span(group), roi, scene, t):
                # Printed edges that changed only in their sharpness: the camera focused a
                # little anew (too little to be followed over the whole picture), and along
                # a long straight edge (the sheet's own, against the wall) that is as
                # slender as a dart. A dart's change keeps its sign across its body.
                continue
            if end_on:
                reach = CROSS_REACH_MM / mm
                fit = end_on_tip(fit, group, shadow, reach, TUFT_RMS_MM / mm)
            if by_shadow:
                fit = replace(fit, point_seen=False)
            found.append(_ranked(fit, group, shadow, mm, slender, plain))
        # Most settles hold one new dart: the most solid blob with the clearest point. Other
        # blobs are mostly what it did to the scene (its shadow on earlier darts, a flight
        # it hides). Two darts thrown within a settle (< 0.3 s) are rare; a second one must
        # be a dart by its own clear blob, apart from the first.
        found = self._tufts_joined(_without_tail_pieces(found), pieces, shadow, (x0, y0))
        found = _flights_joined(found, shadow, cfg.min_dart_mm2)
        if not found and rims and flanks is not None:
            # Only the rim of a new dart along an earlier one changed: it landed tightly
            # beside that dart's point and hides behind it (or hides it) but for that rim.
            # Its point is not seen: say so (a wide sigma), rather than place it anywhere.
            found = [_hidden_along(rims, flanks, shadow)]
        if not found and self._stayed is not None:
            # The dart stayed where it landed: whatever changed there is that dart, however
            # little of it shows (thin flights seen end-on pass for a shadow). A dart that
            # bounced out leaves nothing behind. Its point is not seen: a wide sigma.
            found = self._where_it_stayed(leftovers, shadow, occluders, (x0, y0))
        if not found and long_shadows and self._stayed is not None:
            # Nothing of the dart shows, yet it stayed and casts a long shadow: seen along
            # its axis, its thin flights lost in the camera's noise.
            found = self._by_its_shadow(leftovers, long_shadows, shadow, occluders, (x0, y0))
        found.sort(key=lambda c: -c.score)
        accepted = found[:1]
        for candidate in found[1:]:
            if self._second_dart(candidate, accepted):
                accepted.append(candidate)
        if darts_seen is not None:
            accepted = _same_darts(found, darts_seen, (x0, y0))
        else:
            sides = _edges_reached([(c.fit, c.group) for c in accepted], box, (w, h))
            if any(sides):
                reach = math.ceil(cfg.max_dart_mm / self._mm_per_px)
                bigger = (
                    max(0, x0 - reach * sides[0]),
                    max(0, y0 - reach * sides[1]),
                    min(w, x1 + reach * sides[2]),
                    min(h, y1 + reach * sides[3]),
                )
                seen = [_picture_pixels(c.group, (x0, y0)) for c in accepted]
                return self._look(name, image, small, (empty, gains), bigger, seen)
        for candidate in accepted:
            fit, group = candidate.fit, candidate.group
            event = self._dart_event(name, fit, (x0, y0))
            rows, cols = _picture_pixels(group, (x0, y0))
            known_dart = KnownDart(
                event,
                rows,
                cols,
                (x0, y0, x1, y1),
                fit.axis,
                _reach_px(group, fit),
                point_seen=fit.point_seen and fit.spread_px == 0.0,
            )
            self.darts.append(known_dart)
            events.append(event)
        # A long new shadow: something stands out of the board (a dart seen end-on whose
        # flights hardly show), so the dart did not bounce out.
        substantial = substantial or bool(long_shadows)
        if not events and self.bounce_seen and not substantial:
            events.append(BounceoutEvent(name))
        self.scene = image.copy()
        self.scene_small = small.copy()
        return events

    # --- pieces of the decision ----------------------------------------------------------------
    def _still_there(self, known: KnownDart, image: np.ndarray, gain_r: np.ndarray) -> bool:
        """Whether an earlier dart away from the change still shows: at least ``GONE_SHARE``
        of its own pixels differ from the empty board (in the light ``gain_r``, the
        full-size ratio to it). Not the 60 % that ``_look`` asks of a dart within the
        change: a faint real dart shows barely half, and a missed takeout costs less than a
        false one."""
        assert self.reference is not None
        ys, xs = known.ys, known.xs
        stored = self.reference[ys, xs][None]
        empty = scaled(stored, gain_r[ys, xs][None])
        change = clipped_absdiff(image[ys, xs][None], empty, stored)[0].astype(np.float32)
        if self._allowance is not None:
            change = np.maximum(change - self._allowance[ys, xs], 0.0)
        return bool(np.mean(change > self.threshold) >= GONE_SHARE)

    @staticmethod
    def _resampling_ripple(
        roi: np.ndarray,
        scene: np.ndarray,
        reference: np.ndarray,
        t: float,
        beyond: Callable[[np.ndarray], np.ndarray],
    ) -> np.ndarray:
        """Where a change between pictures resampled onto the empty board's grid is only the
        ripple of resampling: a picture resampled loses fine detail (printed lines, sharp
        edges) by an amount that depends on where between pixels its samples fell, so two of
        them differ there in a fine ripple of both signs (see ``lowpass_absdiff``). That is
        where the stored pictures hold fine detail and the change does not stand after the
        same low-pass of both sides, where the ripple cancels. A thin point keeps half its
        change through that low-pass (a pixel-wide line does), so half the threshold is
        asked of it there; and resampling keeps at least half of a picture's finest detail,
        so detail of half the threshold can ripple. Elsewhere (plain board) a change is taken
        as it is: a point a pixel wide, or with a bright line along it, may not stand the
        low-pass. ``beyond``: takes off the allowance for the photos' residual shift."""
        lowpass = np.minimum(
            beyond(lowpass_absdiff(roi, scene)), beyond(lowpass_absdiff(roi, reference))
        )
        # A dart crossing a printed line changes sign there (lighter than the line, darker
        # than the board beside it), and its low-passed change dips for the line's width:
        # what stands within two pixels counts, so the dart is not cut in two.
        lowpass = cv2.dilate(lowpass, np.ones((5, 5), np.uint8))
        fine = cv2.max(fine_detail(scene), fine_detail(reference))
        return (fine > 0.4 * t) & (lowpass <= 0.4 * t)

    def _tufts_joined(
        self,
        found: list[_Candidate],
        pieces: list[tuple[float, TipFit, np.ndarray]],
        shadow: np.ndarray,
        offset: tuple[int, int],
    ) -> list[_Candidate]:
        """A dart seen nearly along its axis can fall apart into its flights and its body (the
        shaft between them changed too little), and the body alone may be no dart (a grey
        barrel passes for a shadow). The flights lie behind the body's point on its line,
        as flights cut off by an earlier dart do (``_behind_point``): such a pair is one
        dart, with the body's point."""
        out = list(found)
        # (fit, blob, whether the blob is a dart on its own: solid enough to be no shadow)
        body_lines = [(c.fit, c.group, c.plain) for c in found] + [
            (fit, group, False) for _, fit, group in pieces
        ]
        for i, candidate in enumerate(found):
            ys, xs = np.nonzero(candidate.group)
            middle = (float(xs.mean()) + offset[0], float(ys.mean()) + offset[1])
            mm = self._mm_at(middle)
            if candidate.fit.length_px * mm >= JOIN_TUFT_MM:
                continue
            for j, (fit_b, group_b, solid) in enumerate(body_lines):
                if j == i or fit_b.length_px < 2 * max(1.0, fit_b.width_px):
                    continue
                # The flights are far out along the body's line: its direction, known only
                # to about the body's width over its length, decides where they may lie.
                slope = _axis_slope(fit_b)
                if not _behind_point(fit_b, candidate.group, group_b, shadow, mm, slope):
                    continue
                if not solid and _point_end_solid(fit_b, group_b, shadow) < FAR_SOLID:
                    # Ends in shadow-like pixels only: the dart's own shadow. (A body that is
                    # a dart by its own solid blob is no shadow, even with a grey point.)
                    continue
                # The flights must stand out of the board above the body's point: a line
                # further off than a dart can lean is rather the dart's shadow, which starts
                # at the point and runs wherever the light sends it.
                tip_b = np.asarray(fit_b.tip) + np.asarray(offset, dtype=np.float64)
                lean = self.dart_geometry.best_angle(tip_b, np.asarray(middle), LEAN_SPAN_MM)
                if lean <= MAX_LEAN_DEG:
                    out[i] = replace(
                        candidate,
                        fit=fit_b,
                        group=candidate.group | group_b,
                        plain=False,
                    )
        return out

    def _fit(self, images, group: np.ndarray, t: float, hint, tests, mm: float) -> TipFit | None:
        """``fit_tip`` at about one pixel per millimetre, whatever the camera's resolution:
        its small distances (the point's width, the look beside it, gaps) are in pixels.
        ``tests``: the 3D end test, the lean test and how long the longest point can look
        (pixels); ``mm``: mm per pixel at the blob."""
        evidence, (occluders, bodies), shadow, roi, scene, luma = images
        end_test, lean, point_reach = tests
        f = self._canonical
        if f == 1:
            return fit_tip(
                evidence,
                group,
                t,
                occluders,
                shadow,
                hint,
                (roi, scene),
                end_test,
                luma,
                mm_per_px=mm,
                lean=lean,
                bodies=bodies,
                point_reach=point_reach,
            )
        h, w = (evidence.shape[0] // f) * f, (evidence.shape[1] // f) * f
        size = (w // f, h // f)

        def area(image: np.ndarray) -> np.ndarray:
            return cv2.resize(image[:h, :w], size, interpolation=cv2.INTER_AREA)

        def mask(image: np.ndarray) -> np.ndarray:
            return area(image.astype(np.float32)) > 0.5

        def full(p: np.ndarray) -> np.ndarray:
            return (np.asarray(p, dtype=np.float64) + 0.5) * f - 0.5

        fit = fit_tip(
            area(evidence),
            mask(group),
            t,
            mask(occluders),
            mask(shadow),
            hint,
            (area(roi), area(scene)),
            lambda a, b: end_test(full(a), full(b)),
            area(luma),
            mm_per_px=mm * f,
            lean=lambda a, b: lean(full(a), full(b)),
            bodies=mask(bodies),
            point_reach=lambda a, direction: point_reach(full(a), direction) / f,
        )
        if fit is None:
            return None
        tip = full(np.array(fit.tip))
        return replace(
            fit,
            tip=(float(tip[0]), float(tip[1])),
            length_px=fit.length_px * f,
            width_px=fit.width_px * f,
            hidden_px=fit.hidden_px * f,
            spread_px=fit.spread_px * f,
        )

    def _still_blocked(self) -> None:
        """This settle saw something big and new again: blocked since the first of them."""
        earlier = self._blocked_earlier
        self.blocked_since = self._timestamp if earlier is None else earlier

    def _groups(self, mask: np.ndarray) -> list[np.ndarray] | None:
        """Blobs of new pixels, pieces of one dart (split by an earlier dart) put together;
        None for more pieces than ``MAX_PIECES``."""
        _count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, 8)
        mm2 = self._mm_per_px**2
        order = [i for i in np.argsort(-stats[:, cv2.CC_STAT_AREA]) if i != 0]
        order = [i for i in order if stats[i, cv2.CC_STAT_AREA] * mm2 >= 6.0]
        if len(order) > MAX_PIECES:
            return None
        used: set[int] = set()
        groups = []
        gap_px = self.config.max_group_gap_mm / self._mm_per_px
        for seed in order:
            if seed in used:
                continue
            used.add(seed)
            members = [seed]
            # within the blob's bounding box (the same pixels, in the same order)
            x, y, bw, bh = stats[seed, :4]
            ys, xs = np.nonzero(labels[y : y + bh, x : x + bw] == seed)
            ys, xs = ys + y, xs + x
            if len(xs) >= 5:
                c = np.array([xs.mean(), ys.mean()])
                cov = np.cov(np.vstack([xs, ys]))
                vals, vecs = np.linalg.eigh(cov)
                axis = vecs[:, 1]
                half_len = 2 * math.sqrt(max(vals[1], 1e-6))
                width = 2 * math.sqrt(max(vals[0], 1e-6))
                if half_len > 3 * width:
                    for other in order:
                        if other in used:
                            continue
                        d = centroids[other] - c
                        along = abs(float(d @ axis))
                        across = abs(float(d[0] * axis[1] - d[1] * axis[0]))
                        if across < max(4.0, 1.5 * width) and along < half_len + gap_px:
                            members.append(other)
                            used.add(other)
            boxes = stats[members, :4]
            x0, y0 = boxes[:, 0].min(), boxes[:, 1].min()
            x1, y1 = (boxes[:, 0] + boxes[:, 2]).max(), (boxes[:, 1] + boxes[:, 3]).max()
            group = np.zeros(labels.shape, bool)
            group[y0:y1, x0:x1] = np.isin(labels[y0:y1, x0:x1], members)
            groups.append(group)
        return groups

    def _along_line(
        self,
        group: np.ndarray,
        groups: list[np.ndarray],
        fit: TipFit,
        stacked: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    ) -> np.ndarray:
        """``group`` plus the other groups that lie on the dart's line, tail side.
        ``stacked``: every group's pixels in one array (see ``_stacked``)."""
        tip = np.array(fit.tip)
        axis = np.array(fit.axis)
        band = max(6.0, 0.6 * fit.width_px)
        ys_all, xs_all, labels, sizes = stacked
        along, across = axis_coordinates(xs_all, ys_all, tip, axis)
        inside = (np.abs(across) <= band) & (along >= -3) & (along <= fit.length_px * 1.6 + 20)
        share = np.bincount(labels, weights=inside, minlength=len(sizes)) / np.maximum(sizes, 1)
        merged = group
        for k in np.flatnonzero((share > 0.7) & (sizes > 0)):
            if groups[k] is not group:
                merged = merged | groups[k]
        return merged

    def _sliver_with_flights(
        self,
        fit: TipFit,
        group: np.ndarray,
        objects: list[ObjectPixels],
        shadow: np.ndarray,
        known: np.ndarray | None,
        mm: float,
    ) -> tuple[TipFit, np.ndarray] | None:
        """A dart that landed along an earlier one, hidden behind it (or hiding it) but for
        its point and its flights: the point shows as a sliver beside the earlier dart, grey
        and darker like a shadow, and its flights stick out further back on its line. The
        body between them is continuous: every step of the line from the point to the
        flights is the sliver, the earlier darts' pixels, or the flights. A shadow cannot
        be that: it lies on the board and ends nowhere near a new object standing out of
        it. ``known``: the earlier darts' pixels in the region (see ``_known_darts_mask``).
        Returns the fit (length to the flights' far end) and the joined blob."""
        if not fit.point_seen or _point_end_solid(fit, group, shadow) < FAR_SOLID:
            return None
        along = _along_earlier(fit, group, known)
        if along <= fit.length_px:
            return None
        tailed = self._tail_pieces(group, objects, replace(fit, length_px=along), shadow, mm)
        if tailed is group:
            return None
        reach = _reach_px(tailed, fit)
        if _along_earlier(fit, tailed, known) < reach - LINE_GAP_PX:
            return None  # a break in the line between the point and the flights
        longer = replace(fit, length_px=reach)
        if not self._is_dart(longer, tailed, mm, tailed & shadow):
            return None
        return longer, tailed

    def _second_dart(self, candidate: _Candidate, accepted: list[_Candidate]) -> bool:
        """A second dart in the same settle: a solid, slender blob that is a dart on its own,
        with its point seen and not hidden, and apart from every dart already taken (not
        touching it, its point not on that dart's line behind that dart's point)."""
        cfg = self.config
        fit = candidate.fit
        if not (candidate.plain and fit.point_seen and not fit.occluded and fit.quality >= 0.5):
            return False
        if candidate.solid_mm2 < cfg.min_dart_mm2 or candidate.slender < cfg.min_elongation:
            return False
        tip = np.array(fit.tip)
        for other in accepted:
            if np.count_nonzero(candidate.group & other.group):
                return False
            outside = cv2.distanceTransform((~other.group).astype(np.uint8), cv2.DIST_L2, 3)
            if float(outside[candidate.group].min()) * other.mm < FLIGHT_HALF_SPAN_MM:
                return False
            d = tip - np.array(other.fit.tip)
            axis = np.array(other.fit.axis)
            along = float(d @ axis)
            across = abs(float(d[0] * axis[1] - d[1] * axis[0]))
            if along > 0 and across * other.mm < FLIGHT_HALF_SPAN_MM:
                return False
        return True

    def _casts_long_shadow(
        self, group: np.ndarray, fit: TipFit, long_shadows: list[np.ndarray], mm: float
    ) -> bool:
        """A short blob next to a long new shadow is a dart seen nearly along its axis: only
        something standing well out of the board casts a long shadow, and the shadow starts
        at the point, which lies behind the blob (within about its length)."""
        if not long_shadows:
            return False
        outside = cv2.distanceTransform((~group).astype(np.uint8), cv2.DIST_L2, 3)
        reach = fit.length_px + 15.0 / mm
        return any(float(outside[other].min()) <= reach for other in long_shadows)

    def _out_of_own_shadow(
        self, fit: TipFit, group: np.ndarray, shadow: np.ndarray, mm: float, offset: np.ndarray
    ) -> TipFit:
        """The fit with its tip taken back from out in the dart's own shadow, if it was put
        there. Where two shadows of the dart meet on its line (``at_shadow_fork``) is where
        the point touches the board: that is looked for first, the narrow start of one
        shadow (``at_shadow_start``, which a fork's wide joint misleads) only after."""
        fit = at_shadow_fork(fit, group, shadow, mm)
        return at_shadow_start(fit, group, shadow, mm, self._point_px(fit, offset, mm))

    def _point_px(self, fit: TipFit, offset: np.ndarray, mm: float) -> Callable[[], float]:
        """How long the longest point can look from ``fit``'s tip along its line (px): from
        the camera pose, and no shorter than the board's scale there says. Asked lazily."""

        def reach() -> float:
            tip = np.array(fit.tip) + offset
            return self._longest_point_px(tip, np.array(fit.axis), mm, fit.length_px)

        return reach

    def _longest_point_px(
        self, tip: np.ndarray, direction: np.ndarray, mm: float, most_px: float | None = None
    ) -> float:
        """How long (px) the longest point can look from the picture's pixel ``tip`` along the
        image ``direction`` (unit): from the camera pose, and no shorter than the board's
        scale there (``mm`` per pixel) says; looked for up to ``most_px`` (four such points)."""
        most = 4 * POINT_MM / mm if most_px is None else most_px
        along = self.dart_geometry.image_reach(tip, np.asarray(direction), POINT_MM, most)
        return max(along, POINT_MM / mm)

    def _where_it_stayed(
        self,
        leftovers: list[tuple[TipFit, np.ndarray, float, float]],
        shadow: np.ndarray,
        occluders: np.ndarray,
        offset: tuple[int, int],
    ) -> list[_Candidate]:
        """The blob lying mostly where the motion's dart-like blob stayed a moment (as a
        list of at most one): that is the dart itself, too little of it seen to be a dart by
        its shape, as the thin cross of flights of a dart seen along its axis is. The point
        lies under the cross's middle, so the tip is put at the blob's centre, about as
        uncertain as the blob is spread. A blob spread out more than a cross of flights is
        something else (a body and its shadow, along which nothing tells where the point
        is); so is a blob of which nothing but shadow shows (the flights' own shadow); a
        blob mostly over earlier objects (``occluders``) is rather one of them, knocked by a
        dart that then fell; a blob around an earlier dart's flights is where a dart grouped
        along it shows, far from its point (``_at_a_far_end``). For a photo ``_stayed`` is
        the photo's own change (``process_still``)."""
        if self._stayed is None:
            return []
        stayed = self._stayed_widened()
        h, w = stayed.shape
        best, best_share = [], self._stayed_share
        for fit, group, mm, slender in leftovers:
            ys, xs = np.nonzero(group)
            if np.count_nonzero(~shadow[ys, xs]) * mm * mm < self.config.min_dart_mm2 * SOME_OF_IT:
                continue
            if np.mean(occluders[ys, xs]) >= 0.5:
                continue
            sx = np.clip(((xs + offset[0]) / self._scale).astype(int), 0, w - 1)
            sy = np.clip(((ys + offset[1]) / self._scale).astype(int), 0, h - 1)
            share = float(np.mean(stayed[sy, sx]))
            centre = (float(xs.mean()), float(ys.mean()))
            if self._at_a_far_end((centre[0] + offset[0], centre[1] + offset[1]), mm):
                continue
            spread = math.sqrt(float(np.mean((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2)))
            if share >= best_share and spread * mm <= TUFT_RMS_MM:
                at_centre = replace(fit, tip=centre, point_seen=False, spread_px=spread)
                best = [_ranked(at_centre, group, shadow, mm, slender, plain=False)]
                best_share = share
        return best

    def _stayed_widened(self) -> np.ndarray:
        """Where the motion's dart-like blob stayed (small picture), a pixel wider."""
        assert self._stayed is not None
        return cv2.dilate(self._stayed.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0

    def _by_its_shadow(
        self,
        leftovers: list[tuple[TipFit, np.ndarray, float, float]],
        long_shadows: list[np.ndarray],
        shadow: np.ndarray,
        occluders: np.ndarray,
        offset: tuple[int, int],
    ) -> list[_Candidate]:
        """A dart known by its long shadow alone (as a list of at most one): the shadow is a
        dart's (thin where it starts at the point, as wide as flights at its end), and that
        start lies where the motion's dart-like blob stayed. A shadow starting on an earlier
        object is that object's own, cast anew when the light changed (a lamp switched on);
        one longer than a low lamp makes of the longest dart is something else's."""
        stayed = self._stayed_widened()
        h, w = stayed.shape
        rh, rw = occluders.shape
        near = cv2.dilate(occluders.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
        longest = SHADOW_LONGEST * self.config.max_dart_mm
        for fit, group, mm, _slender in leftovers:
            if not any(group is cast for cast in long_shadows) or fit.length_px * mm > longest:
                continue
            lone = lone_shadow_tip(fit, group, shadow)
            if lone is None:
                continue
            x, y = lone.tip
            if near[min(rh - 1, max(0, round(y))), min(rw - 1, max(0, round(x)))]:
                continue
            sx = min(w - 1, max(0, int((x + offset[0]) / self._scale)))
            sy = min(h - 1, max(0, int((y + offset[1]) / self._scale)))
            if stayed[sy, sx]:
                return [_ranked(lone, group, shadow, mm, 1.0, plain=False)]
        return []

    def _at_a_far_end(self, pixel: tuple[float, float], mm: float) -> bool:
        """Whether ``pixel`` lies within a flight's reach of the far end (the flights) of an
        earlier dart seen from its side. A dart grouped tightly along that one hides its body
        and point there and changes little but beside those flights: its point lies about a
        dart's length away, so the middle of that change is no place for it."""
        reach = CROSS_REACH_MM / mm
        for known in self.darts:
            if known.length_px <= 2 * reach:
                # seen nearly end-on: its flights are around its point, where a dart
                # grouped along it may well show as a cross of its own
                continue
            tip = known.event.tip_px
            far = (
                tip[0] + known.axis[0] * known.length_px,
                tip[1] + known.axis[1] * known.length_px,
            )
            if math.hypot(pixel[0] - far[0], pixel[1] - far[1]) <= reach:
                return True
        return False

    def _end_on(
        self, group: np.ndarray, shadow: np.ndarray, mm: float, solid: float, span: Span
    ) -> bool:
        """A dart seen along its own axis shows little but the thin cross of its flights,
        yet it casts a long shadow (only something standing well out of the board does).
        ``span``: where ``group`` lies (``_span``)."""
        cfg = self.config
        if solid < cfg.min_dart_mm2 * SOME_OF_IT:
            return False
        return _extent_px(group, span, shadow) * mm >= cfg.long_dart_mm

    def _solid_mm2(
        self, group: np.ndarray, shadow: np.ndarray, offset: tuple[int, int], span: Span
    ) -> float:
        """Area of a blob's pixels that are an object, not a shadow (board mm^2). ``span``:
        where ``group`` lies (``_span``)."""
        ys, xs = _pixels_in(group, span)
        if len(xs) == 0:
            return 0.0
        mm = self._mm_at((float(xs.mean()) + offset[0], float(ys.mean()) + offset[1]))
        rows, cols = span
        return float(np.count_nonzero(group[rows, cols] & ~shadow[rows, cols])) * mm * mm

    def _mm_at(self, pixel: tuple[float, float]) -> float:
        """``calibration.mm_per_pixel``, remembered: a settle asks it for the same blob
        centres several times."""
        mm = self._mm_memo.get(pixel)
        if mm is None:
            if len(self._mm_memo) > 4096:
                self._mm_memo.clear()
            mm = self._mm_memo[pixel] = self.calibration.mm_per_pixel(pixel)
        return mm

    def _tail_pieces(
        self,
        group: np.ndarray,
        objects: list[ObjectPixels],
        fit: TipFit,
        shadow: np.ndarray,
        mm: float,
    ) -> np.ndarray:
        """``group`` plus the object blobs behind its point on its line (see
        ``_behind_point``): the flights and the shaft of the same dart, cut off from the
        barrel where the dart crosses an earlier one. ``objects``: see ``_with_pixels``."""
        merged = group
        for other, pixels in objects:
            if _behind_point(fit, other, merged, shadow, mm, pixels=pixels):
                merged = merged | other
        return merged

    def _is_dart(
        self, fit: TipFit, group: np.ndarray, mm: float, its_shadow: np.ndarray | None = None
    ) -> bool:
        cfg = self.config
        length_mm = fit.length_px * mm
        area_mm2 = float(np.count_nonzero(group)) * mm * mm
        # A dart's own shadow can be far bigger than the dart (a low light), and so can its
        # image measured in board mm (flights far out of the board, seen at a grazing
        # angle): only the object pixels count against the size of a hand.
        shadow_mm2 = (
            float(np.count_nonzero(its_shadow)) * mm * mm if its_shadow is not None else 0.0
        )
        if area_mm2 - shadow_mm2 > cfg.max_dart_mm2:
            return False
        if area_mm2 < cfg.min_dart_mm2:
            # A dart seen along its own axis hides its barrel behind its flights, a cross of
            # wings seen nearly edge-on: less than a barrel seen from its side, but ragged.
            return (
                area_mm2 >= END_ON_AREA_SHARE * cfg.min_dart_mm2
                and length_mm >= cfg.min_dart_mm
                and _solidity(group) < cfg.max_piece_solidity
            )
        if length_mm >= cfg.long_dart_mm:
            return True
        if its_shadow is not None and _extent_px(its_shadow) * mm >= cfg.long_dart_mm:
            # Only something standing well out of the board casts a long shadow: a dart
            # seen along its own axis (flat pieces cast a sliver).
            return True
        if length_mm < cfg.min_dart_mm:
            return False
        elongation = fit.length_px / max(1.0, fit.width_px)
        if elongation >= cfg.min_elongation:
            return True
        # A dart seen along its own axis is a cross of flights: ragged, unlike the round,
        # solid disc of a magnet.
        return _solidity(group) < cfg.max_piece_solidity

    def _dart_event(self, name: str, fit: TipFit, offset: tuple[int, int]) -> DartEvent:
        u, v = fit.tip[0] + offset[0], fit.tip[1] + offset[1]
        x, y = self.calibration.image_to_board(np.array([[u, v]]))[0]
        mm_px = self.calibration.mm_per_pixel((u, v))
        sigma = mm_px * (0.5 + 1.5 * (1.0 - fit.quality))
        if not fit.point_seen:
            # The point blends into the board (a dark point on a dark segment): the tip lies
            # somewhere ahead of the barrel, a point's length at most.
            sigma = max(sigma, self.config.unseen_point_sigma_mm)
        if fit.occluded:
            # uniform over the hidden stretch of the axis
            sigma = math.hypot(sigma, fit.hidden_px * mm_px / math.sqrt(12))
        if fit.spread_px > 0:
            # the point is hidden under the flights of a dart seen along its axis
            sigma = math.hypot(sigma, fit.spread_px * mm_px)
        location = self.board.locate(float(x), float(y), float(sigma))
        return DartEvent(
            name,
            float(x),
            float(y),
            float(sigma),
            location.zone,
            location.candidates,
            (float(u), float(v)),
        )


# The flights stand out of the board towards the camera and look bigger than on it.
JOIN_TUFT_MM = LOOK_TUFT_MM
# A ragged blob (a cross of flights seen end-on) this share of a barrel's area may be a dart.
END_ON_AREA_SHARE = 0.5
# A break this long (px) along a dart's line ends its body.
LINE_GAP_PX = 2
# A point found this close to the region's edge (pixels) may go on past it.
EDGE_PX = 2.0
# Further than this from a dart's own point a point of its own cannot reach, even leaning
# towards the camera (twice the longest point): what lies there on its line is its shadow.
SHADOW_AHEAD_MM = 2 * POINT_MM
# From the point to the middle of the flights, any common dart (for the lean test).
LEAN_SPAN_MM = (60.0, 160.0)


def _not_pulled(
    d_scene: np.ndarray, d_ref: np.ndarray, earlier: np.ndarray, threshold: float
) -> bool:
    """Whether a known dart within the change is still there, from its pixels' change now to
    the last scene (``d_scene``), to the empty board (``d_ref``), and the last scene's to the
    empty board (``earlier``, where the dart showed).

    Most of it still differs from the empty board (a new dart may cover it, or lie on it).
    Or, where the dart showed, most of its pixels are nearer the last scene than the empty
    board: a thin dart (crossed flights seen end-on) shows barely half of its blob over the
    threshold, and a new dart landing beside it must not make it pulled (and so a takeout).
    A piece moved onto a pulled dart's place differs from both, and the rest of that place
    is the empty board's: it is pulled."""
    if np.mean(d_ref > threshold) >= NOT_PULLED_SHARE:
        return True
    showed = earlier > threshold
    if np.count_nonzero(showed) < MIN_SHOWN_PIXELS:
        return False
    return bool(np.mean(d_scene[showed] < d_ref[showed]) >= 0.5)


def _blobs(mask: np.ndarray) -> list[tuple[float, tuple[float, float], float]]:
    """(area, centroid, diagonal) of each blob of a mask."""
    count, _labels, stats, centroids = cv2.connectedComponentsWithStats(mask.astype(np.uint8), 8)
    return [
        (
            float(stats[i, cv2.CC_STAT_AREA]),
            (float(centroids[i][0]), float(centroids[i][1])),
            math.hypot(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]),
        )
        for i in range(1, count)
    ]


def _without_tail_pieces(found: list[_Candidate]) -> list[_Candidate]:
    """Drop a candidate whose blob another candidate took in as the tail of its dart (a
    flight cut off from its barrel has no point of its own). When two pieces each took the
    other in, the point is on the slenderer one: a barrel is thinner than a flight.

    A candidate known by its shadow alone (its point unseen) that took in a dart by its own
    blob is that dart's shadow running on along its line (a lamp behind the dart) when it
    puts its point on that dart's blob (at its flights) or further from that dart's own
    point than a point could reach (at the shadow's far end): the dart is kept, with its
    own point. Nearer than that, it is the dart's thin point, cut off from its body. A
    candidate whose point was seen (a sliver along an earlier dart, its flights behind)
    keeps what it took in. (A grey front of a dart cut off from its flights by an earlier
    one, its point unseen, is dropped so too when the cut lies further back than that.)"""
    sizes = [np.count_nonzero(c.group) for c in found]

    def shadow_of(rival: _Candidate, dart: _Candidate) -> bool:
        if rival.fit.point_seen:
            return False
        apart = math.dist(rival.fit.tip, dart.fit.tip) * dart.mm
        return _touches(dart.group, rival.fit.tip) or apart > SHADOW_AHEAD_MM

    shadows_of_darts = {
        j
        for j, rival in enumerate(found)
        if not rival.plain
        and any(
            c.plain and np.count_nonzero(c.group & rival.group) == sizes[i] and shadow_of(rival, c)
            for i, c in enumerate(found)
            if i != j
        )
    }
    kept = []
    for i, candidate in enumerate(found):
        if i in shadows_of_darts:
            continue
        group, slender = candidate.group, candidate.slender
        size = sizes[i]
        swallowed = False
        for j, rival in enumerate(found):
            other, slender2 = rival.group, rival.slender
            if i == j or j in shadows_of_darts or np.count_nonzero(group & other) < size:
                continue
            bigger = np.count_nonzero(other) > size
            if bigger or slender2 > slender or (slender2 == slender and j < i):
                swallowed = True
                break
        if not swallowed:
            kept.append(found[i])
    return kept


def _touches(group: np.ndarray, point: tuple[float, float], reach: int = 2) -> bool:
    """Whether ``group`` holds a pixel within ``reach`` pixels of ``point``."""
    x, y = round(point[0]), round(point[1])
    h, w = group.shape
    x0, x1 = max(0, x - reach), min(w, x + reach + 1)
    y0, y1 = max(0, y - reach), min(h, y + reach + 1)
    return x0 < x1 and y0 < y1 and bool(group[y0:y1, x0:x1].any())


def _flights_joined(
    found: list[_Candidate], shadow: np.ndarray, min_dart_mm2: float
) -> list[_Candidate]:
    """A dart that landed beside an earlier one can fall apart into its barrel (a slender
    blob with its point) and its flights further back on the barrel's line, cut off where the
    shaft crosses the earlier dart. The flights' blob is wider than the barrel, and its end
    is a flight's edge, no point; being the bigger blob it would win the settle. A candidate
    behind another's point on that one's line (within the span flights show beside it:
    standing out of the board, they look up to ``FLIGHT_LOOK_MAX`` times their span on the
    board), and less slender than it, is that dart's flights: it joins that dart. The part
    with the point must be a dart's body by itself (``min_dart_mm2`` of it not shadow): a
    pair of flights seen edge-on is slender too, and would swallow the real dart."""
    out = list(found)
    dropped: set[int] = set()
    pixels_of: dict[int, tuple] = {}  # each candidate's pixels, found once for all its tests
    for i, flights in enumerate(found):
        for j, body in enumerate(found):
            if i == j or j in dropped or body.slender <= flights.slender:
                continue
            fit = body.fit
            if not (body.plain and fit.point_seen and not fit.occluded):
                continue
            if body.solid_mm2 < min_dart_mm2:
                continue
            slope = _axis_slope(fit)
            if i not in pixels_of:
                pixels_of[i] = (np.nonzero(flights.group), np.nonzero(flights.group & ~shadow))
            if _behind_point(
                fit,
                flights.group,
                body.group,
                shadow,
                body.mm,
                slope,
                FLIGHT_LOOK_MAX,
                pixels=pixels_of[i],
            ):
                dropped.add(i)
                out[j] = replace(out[j], group=out[j].group | flights.group)
                break
    return [c for k, c in enumerate(out) if k not in dropped]


def _behind_point(
    fit: TipFit,
    other: np.ndarray,
    group: np.ndarray,
    shadow: np.ndarray,
    mm: float,
    slope: float = 0.0,
    look: float = 1.0,
    pixels: tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None,
) -> bool:
    """Whether the object blob ``other`` (apart from ``group``, the blob of ``fit``) lies
    behind the fit's point on its line: a piece of the same dart (its flights, its shaft)
    cut off from the part with the point. Flights are wider than the barrel: the band is a
    flight's half span (about 20 mm) rather than the barrel's width. Shadows are left out
    (they start at the point and run wherever the light sends them). ``slope``: how far
    (px per px along) the dart's true line may leave the fitted one (see ``_axis_slope``);
    ``look``: how many times a flight's span on the board the flights may look beside it.
    ``pixels``: ``other``'s pixels and those of it that are not shadow, if already found."""
    if pixels is None:
        pixels = (np.nonzero(other), np.nonzero(other & ~shadow))
    if group[pixels[0]].any():
        return False
    ys, xs = pixels[1]
    if len(xs) == 0:
        return False
    tip = np.array(fit.tip)
    axis = np.array(fit.axis)
    band = max(6.0, 0.6 * fit.width_px, look * FLIGHT_HALF_SPAN_MM / mm)
    reach = 2.5 * fit.length_px + 20
    along, across = axis_coordinates(xs, ys, tip, axis)
    inside = (
        (np.abs(across) <= band + slope * np.maximum(along, 0.0))
        & (along >= 0.3 * fit.length_px)
        & (along <= reach)
    )
    return bool(inside.mean() > 0.7)


def _axis_slope(fit: TipFit) -> float:
    """How far the dart's true line may leave a fitted line, per pixel along it: a line
    fitted to a blob is sure only to about the blob's width over its length (a sliver, the
    part of a dart beside an earlier one, is one side of the dart: its line leans by that
    much)."""
    return max(1.0, fit.width_px) / max(1.0, fit.length_px)


def _point_end_solid(fit: TipFit, group: np.ndarray, shadow: np.ndarray) -> float:
    """Of the 1-px steps along the fit's line over the third of its length next to its point,
    the share holding a pixel that is not shadow-like. A body's point end (point, barrel)
    changed colour somewhere; the dart's own shadow, which starts at the point and runs
    away from it, only darkened the board. Steps the blob leaves empty count against it: a
    body is a continuous line, while a shadow on a dark field is patchy (its ratio there is
    noisy) and a few specks of it may pass for solid."""
    ys, xs = np.nonzero(group)
    along, across = axis_coordinates(xs, ys, fit.tip, fit.axis)
    end = fit.length_px / 3
    near = (np.abs(across) <= 1.5) & (along >= -2.0) & (along <= end)
    if not near.any():
        return 1.0  # nothing to judge by
    steps = np.floor(along[near]).astype(int)
    solid = ~shadow[ys[near], xs[near]]
    span = np.floor(end) - steps.min() + 1  # from where the blob starts on the line
    return len(np.unique(steps[solid])) / max(span, len(np.unique(steps)))


def _ranked(
    fit: TipFit, group: np.ndarray, shadow: np.ndarray, mm: float, slender: float, plain: bool
) -> _Candidate:
    """A blob taken for a dart, ranked: a big solid blob with a clearly seen, unhidden point
    first."""
    solid = np.count_nonzero(group & ~shadow) * mm * mm
    return _Candidate(solid * (0.25 + fit.quality), fit, group, slender, solid, plain, mm)


def _known_darts_mask(darts: list[KnownDart], box: tuple[int, int, int, int]) -> np.ndarray | None:
    """The pixels of earlier darts within ``box`` (x0, y0, x1, y1) as a mask of the region;
    None when none lies there."""
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), bool)
    for known in darts:
        inside = (known.ys >= y0) & (known.ys < y1) & (known.xs >= x0) & (known.xs < x1)
        mask[known.ys[inside] - y0, known.xs[inside] - x0] = True
    return mask if mask.any() else None


def _earlier_lines(
    darts: list[KnownDart], box: tuple[int, int, int, int]
) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    """Each earlier dart's line in the region's pixels: its point, the unit axis from the
    point towards its flights, its length and how far its own pixels reach beside the line
    (px; its flights, as they look from the camera). That reach is known only for a dart
    placed by its seen point (``KnownDart.point_seen``): a dart placed without one may lie
    off its pixels' line (0 then)."""
    lines = []
    for known in darts:
        if known.length_px <= 0.0:
            continue
        tip = np.array(known.event.tip_px, np.float64)
        axis = np.array(known.axis, np.float64)
        _along, across = axis_coordinates(known.xs, known.ys, tip, axis)
        seen = known.point_seen and across.size
        reach = float(np.abs(across).max()) if seen else 0.0
        lines.append((tip - box[:2], axis, known.length_px, reach))
    return lines


# The visible end of a new blob this close (px) to an earlier dart's pixels touches it.
FLANK_PX = 2.0
# Behind this part of an earlier dart's length from its point lie its barrel, shaft and
# flights: a new dart along it cannot show its point there, only its own edges.
FLANK_FROM = 1.0 / 3.0
# Flights stand out of the board towards the camera: beside its line, an earlier dart's
# flights look up to this many times a flight's span on the board.
FLIGHT_LOOK_MAX = 2.0
# A rim lies (but for stray pixels) on the earlier dart's line, within its length.
RIM_INSIDE = 0.7


@dataclass
class _Flanks:
    """The earlier darts in a region: their lines and each pixel's distance to them."""

    lines: list[tuple[np.ndarray, np.ndarray, float, float]]
    distance: np.ndarray


def _earlier_flanks(
    darts: list[KnownDart],
    box: tuple[int, int, int, int],
    known: np.ndarray | None,
) -> _Flanks | None:
    """The earlier darts' lines and distance map within ``box`` (None: none lies there)."""
    if known is None:
        return None
    lines = _earlier_lines(darts, box)
    if not lines:
        return None
    distance = cv2.distanceTransform((~known).astype(np.uint8), cv2.DIST_L2, 3)
    return _Flanks(lines, distance)


def _point_on_flank(fit: TipFit, group: np.ndarray, flanks: _Flanks | None, mm: float) -> bool:
    """Whether the blob ``group`` of ``fit`` is only a rim along an earlier dart: its point
    touches that dart behind that dart's point, and the blob lies on that dart's line (within
    a flight's half span of it) between its point and a little past its far end. A new
    dart that landed tightly along an earlier one shows there only the rim where its own
    shaft or flights stick out of the earlier dart's (they are shifted along the line by
    as much as the points are); the end of such a rim is no point on the board. A point
    that does show there stands off the earlier dart (it is not covered by it), or its
    body runs off the earlier dart's line; one hidden behind it is not seen."""
    if flanks is None:
        return False
    h, w = flanks.distance.shape
    tx, ty = fit.tip
    col, row = round(tx), round(ty)
    # a rim is as wide as the shift between the two darts: its end is within that width
    near = max(FLANK_PX, 0.5 * fit.width_px)
    if not (0 <= row < h and 0 <= col < w) or flanks.distance[row, col] > near:
        return False
    band = FLIGHT_HALF_SPAN_MM / mm
    ys, xs = np.nonzero(group)
    for tip, axis, length, reach in flanks.lines:
        # beside the line, a rim reaches as far as the earlier dart's own flights do (they
        # stand out of the board and look bigger than a flight's span on it)
        beside = max(band, min(reach, FLIGHT_LOOK_MAX * band))
        along, across = axis_coordinates(np.array([tx]), np.array([ty]), tip, axis)
        if not (FLANK_FROM * length <= along[0] <= length + band and abs(across[0]) <= beside):
            continue
        along, across = axis_coordinates(xs, ys, tip, axis)
        inside = (along >= 0) & (along <= length + band) & (np.abs(across) <= beside)
        if inside.mean() > RIM_INSIDE:
            return True
    return False


def _hidden_along(
    rims: list[tuple[np.ndarray, float]], flanks: _Flanks, shadow: np.ndarray
) -> _Candidate:
    """A dart hidden along an earlier one, known only by its rims (``_point_on_flank``): its
    point at that dart's point, moved back along its line by as far as the rims reach past
    that dart's far end (the two darts are shifted along the line by about as much); the
    point is unseen and the move uncertain (``hidden_px``)."""
    group = np.zeros_like(shadow)
    for rim, _mm in rims:
        group |= rim
    mm = rims[0][1]
    ys, xs = np.nonzero(group)
    best = None
    for tip, axis, length, _reach in flanks.lines:
        along, across = axis_coordinates(xs, ys, tip, axis)
        off = float(np.median(np.abs(across)))
        if best is None or off < best[0]:
            best = (off, tip, axis, length, float(along.max()))
    assert best is not None
    _off, tip, axis, length, reach = best
    shift = min(max(reach - length, 0.0), length / 3)
    point = tip + shift * axis
    fit = TipFit(
        tip=(float(point[0]), float(point[1])),
        axis=(float(axis[0]), float(axis[1])),
        length_px=length,
        width_px=1.0,
        contrast=0.0,
        occluded=True,
        quality=0.0,
        hidden_px=2.0 * shift,
        point_seen=False,
    )
    return _ranked(fit, group, shadow, mm, 1.0, plain=False)


def _along_earlier(fit: TipFit, group: np.ndarray, known: np.ndarray | None) -> float:
    """How far (px) from the fit's point its line runs on without a break over its own blob
    or the pixels of earlier darts (``known``, see ``_known_darts_mask``); 0 when no earlier
    dart lies in the region."""
    if known is None:
        return 0.0
    ys, xs = np.nonzero(group | known)
    along, across = axis_coordinates(xs, ys, fit.tip, fit.axis)
    band = max(1.5, 0.5 * fit.width_px)
    on_line = (np.abs(across) <= band) & (along >= 0)
    steps = np.unique(np.floor(along[on_line]).astype(int))
    reach = 0
    for step in steps:
        if step - reach > LINE_GAP_PX:
            break
        reach = int(step)
    return float(reach)


def _picture_pixels(group: np.ndarray, offset: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A region's blob as rows and columns of the whole picture (``offset``: the region's
    left and top)."""
    rows, cols = np.nonzero(group)
    return rows + offset[1], cols + offset[0]


def _same_darts(
    found: list[_Candidate],
    darts_seen: list[tuple[np.ndarray, np.ndarray]],
    offset: tuple[int, int],
) -> list[_Candidate]:
    """For each dart seen before (its pixels' rows and columns in the picture), the best
    ranked candidate (``found`` is sorted) that covers some of those pixels."""
    out: list[_Candidate] = []
    for rows, cols in darts_seen:
        r, c = rows - offset[1], cols - offset[0]
        for candidate in found:
            h, w = candidate.group.shape
            inside = (r >= 0) & (r < h) & (c >= 0) & (c < w)
            if candidate.group[r[inside], c[inside]].any():
                if not any(candidate is kept for kept in out):
                    out.append(candidate)
                break
    return out


def _edges_reached(
    darts: list[tuple[TipFit, np.ndarray]],
    box: tuple[int, int, int, int],
    size: tuple[int, int],
) -> tuple[bool, bool, bool, bool]:
    """Which sides of ``box`` (left, top, right, bottom) a dart's blob or point reaches,
    where that side is not the picture's own edge (past it there is nothing to see)."""
    x0, y0, x1, y1 = box
    w, h = size
    left = top = right = bottom = False
    for fit, group in darts:
        tx, ty = fit.tip
        gh, gw = group.shape
        left |= x0 > 0 and (bool(group[:, 0].any()) or tx < EDGE_PX)
        top |= y0 > 0 and (bool(group[0, :].any()) or ty < EDGE_PX)
        right |= x1 < w and (bool(group[:, -1].any()) or tx > gw - 1 - EDGE_PX)
        bottom |= y1 < h and (bool(group[-1, :].any()) or ty > gh - 1 - EDGE_PX)
    return left, top, right, bottom


# rows and columns of a region that hold all of a blob's pixels
Span = tuple[slice, slice]


def _span(mask: np.ndarray) -> Span:
    """The rows and columns of ``mask`` that hold all its pixels (its bounding box)."""
    x, y, w, h = cv2.boundingRect(mask.view(np.uint8))
    return slice(y, y + h), slice(x, x + w)


def _with_pixels(
    masks: list[np.ndarray],
    shadow: np.ndarray,
    pixels: list[tuple[np.ndarray, np.ndarray]] | None = None,
) -> list[ObjectPixels]:
    """Each object blob with its pixels and those of them that are not shadow, found once
    for every test of it against a dart (``_tail_pieces``); ``pixels``: each mask's
    ``np.nonzero`` if already found."""
    out = []
    for mask, (ys, xs) in zip(masks, pixels or [np.nonzero(m) for m in masks], strict=True):
        own = ~shadow[ys, xs]
        out.append((mask, ((ys, xs), (ys[own], xs[own]))))
    return out


def _stacked(
    pixels: list[tuple[np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every blob's pixels (each ``np.nonzero``) in one array: (ys, xs, each pixel's blob,
    each blob's size). A change all over the picture holds thousands of blobs, each tested
    against every dart-like one (``_along_line``)."""
    sizes = np.array([len(xs) for _, xs in pixels], dtype=np.int64)
    if not pixels:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty, sizes
    ys = np.concatenate([ys for ys, _ in pixels])
    xs = np.concatenate([xs for _, xs in pixels])
    return ys, xs, np.repeat(np.arange(len(pixels)), sizes), sizes


def _pixels_in(mask: np.ndarray, span: Span, cut: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero(mask)`` of a mask whose pixels all lie within ``span``, reading only
    there: the same rows and columns, in the same order. ``cut``: ``mask`` is already only
    that part."""
    rows, cols = span
    ys, xs = np.nonzero(mask if cut else mask[rows, cols])
    return ys + rows.start, xs + cols.start


def _reach_px(mask: np.ndarray, fit: TipFit) -> float:
    """How far a blob reaches from the fit's point along its axis (pixels)."""
    ys, xs = np.nonzero(mask)
    along, _across = axis_coordinates(xs, ys, fit.tip, fit.axis)
    return float(along.max()) if len(xs) else 0.0


def _solidity(group: np.ndarray) -> float:
    """How much of its convex hull (with half its outline, for thin shapes) a blob fills."""
    ys, xs = np.nonzero(group)
    hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32))
    return len(xs) / max(1.0, cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True))


def _extent_px(
    mask: np.ndarray, span: Span | None = None, within: np.ndarray | None = None
) -> float:
    """Length of a blob along its main direction; of its part in ``within`` if given.
    ``span``: where ``mask`` lies (``_span``), if known."""
    if span is None:
        ys, xs = np.nonzero(mask if within is None else mask & within)
    else:
        part = mask[span] if within is None else mask[span] & within[span]
        ys, xs = _pixels_in(part, span, cut=True)
    if len(xs) < 10:
        return 0.0
    pts = np.column_stack([xs, ys]).astype(np.float64)
    pts -= pts.mean(axis=0)
    _, vecs = np.linalg.eigh(pts.T @ pts)
    along = pts @ vecs[:, -1]
    return float(along.max() - along.min())


__all__ = ["Detector", "DetectorConfig", "KnownDart", "robust_sigma"]


def _tiles_hit(changed: np.ndarray, among: np.ndarray | None = None) -> tuple[int, int]:
    """How many of the picture's tiles (``TILE_GRID``) hold a change, and of how many; with
    ``among`` (a bool per tile), of those tiles only."""
    tiles = cv2.resize(changed.astype(np.float32), TILE_GRID, interpolation=cv2.INTER_AREA) > 0
    if among is None:
        return int(np.count_nonzero(tiles)), tiles.size
    return int(np.count_nonzero(tiles & among)), max(1, int(np.count_nonzero(among)))


def _tile_share(changed: np.ndarray, among: np.ndarray | None = None) -> float:
    """The share of the picture's tiles that hold a change (see ``_tiles_hit``)."""
    hit, of = _tiles_hit(changed, among)
    return hit / of


def _explains(
    before: np.ndarray,
    after: np.ndarray,
    edged: np.ndarray | None,
    spread: float,
    share: float = 1.0,
) -> bool:
    """Whether undoing a move (or a refocus) explains a change all over the picture: where
    the small picture changed ``before`` and ``after`` it was undone. Either the change
    leaves most of the tiles with printed edges (``spread``: the share it covered), or most
    of its pixels go: darts pulled out in the same settle keep a few tiles changed, and on a
    board with few tiles of printed edges those may be more than half of them. With
    ``share`` < 1, only that share of what must go has to (a rough move's test), and only
    the pixels count: on the small pictures a dart's change that merely shifts out of one of
    a few edged tiles (a dartboard framed by plain wall) passes the tile rule, which cost a
    search proper of 30-75 ms on such settles."""
    if share >= 1.0 and _tile_share(after, edged) <= 0.5 * spread:
        return True
    left = MOVE_LEFT + (1.0 - MOVE_LEFT) * (1.0 - share)  # exactly MOVE_LEFT at share 1
    return np.count_nonzero(after) <= left * np.count_nonzero(before)


def _edge_tiles(reference_small: np.ndarray, threshold: float) -> np.ndarray | None:
    """The 8 x 6 tiles of the empty board's small picture whose printed edges would change
    by more than ``threshold`` if the board moved by a pixel: only those can show a move.
    A dartboard framed with a lot of plain wall around it leaves most tiles without any.
    None when too few tiles have edges to say (then every tile counts)."""
    grey = reference_small if reference_small.ndim == 2 else reference_small.mean(axis=2)
    grey = grey.astype(np.float32)
    slope = np.hypot(
        cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    )
    edges = (slope / 8.0 > threshold).astype(np.float32)  # Sobel's 3x3 sums 8 px of slope
    tiles = cv2.resize(edges, TILE_GRID, interpolation=cv2.INTER_AREA) > EDGE_TILE_SHARE
    return tiles if np.count_nonzero(tiles) >= MIN_EDGE_TILES else None


def _outside(image: np.ndarray, base: np.ndarray, threshold: float, reach: int) -> np.ndarray:
    """Where ``image`` differs from ``base`` by more than ``threshold``; with ``reach`` > 0,
    from every value of ``base`` within that many pixels (a tolerance for misregistration)."""
    if reach == 0:
        return np.abs(image - base) > threshold
    kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    low, high = cv2.erode(base, kernel), cv2.dilate(base, kernel)
    return (image < low - threshold) | (image > high + threshold)

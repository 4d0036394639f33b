"""The engine's follow camera (engine.camera): what a player sees the view do as the hero moves.

View 640 x 360 over a map 3200 x 512 unless said; the hero's box is 20 x 32 (half size 10 x 16).
"""

import pytest

from engine.camera import CameraConfig, FollowCamera

VIEW, MAP, HERO = (640, 360), (3200, 512), (10, 16)


def run(camera, x, y, seconds, velocity_x=0.0):
    for _ in range(round(seconds * 60)):
        camera.follow(x, y, 1 / 60, velocity_x=velocity_x, half_size=HERO)


def test_small_moves_inside_the_dead_zone_do_not_move_the_view():
    camera = FollowCamera(VIEW, MAP)
    camera.snap(1000, 200, HERO)
    run(camera, 1050, 230, 2.0)  # 50 px right, 30 px up: inside 77 x 54 px
    assert camera.position == (1000, 200)


def test_the_view_leads_the_hero_in_his_running_direction():
    camera = FollowCamera(VIEW, MAP)
    camera.snap(1000, 200, HERO)
    run(camera, 1000, 200, 2.0, velocity_x=200)  # running right (standing still here, to isolate the lead)
    assert camera.lead == 48.0
    run(camera, 1000, 200, 0.2, velocity_x=-200)  # turning: the lead swings over, not at once
    assert 0 < camera.lead < 48
    run(camera, 1000, 200, 2.0, velocity_x=-200)
    assert camera.lead == -48.0


def test_the_view_stays_inside_the_map_sideways_and_at_the_bottom():
    camera = FollowCamera(VIEW, MAP)
    camera.snap(5, 40)
    assert camera.view[:2] == (0, 0)
    camera.snap(3195, 40)
    assert camera.view[2] == 3200


def test_a_jump_above_the_maps_top_keeps_the_hero_48_px_inside_the_view():
    camera = FollowCamera(VIEW, MAP)
    camera.snap(1000, 400, HERO)
    assert camera.view[3] == 512  # at rest the view stops at the map's top
    for y in range(400, 620, 4):  # a jump far above the map's top, faster than the smoothing follows
        camera.follow(1000, y, 1 / 60, half_size=HERO)
        assert camera.view[3] - (y + 16) >= 48
    assert camera.view[3] > 512  # the sky goes on above the map


def test_the_position_is_whole_pixels_and_keeps_the_margin_after_rounding():
    camera = FollowCamera(VIEW, MAP)
    camera.snap(1000, 300.3, HERO)
    for y in (300.3, 333.7, 371.45, 402.9):
        camera.follow(1000.6, y, 1 / 60, half_size=HERO)
        x_px, y_px = camera.position
        assert isinstance(x_px, int) and isinstance(y_px, int)
        assert camera.view[3] - (y + 16) >= 48 and (y - 16) - camera.view[1] >= 48 or camera.view[1] == 0


def test_below_map_lets_the_view_dip_under_the_bottom_only_for_the_margin():
    camera = FollowCamera(VIEW, MAP, CameraConfig(below_map=16))
    camera.snap(1000, 50, HERO)  # feet 34 px above the map's bottom
    assert (50 - 16) - camera.view[1] >= 48 and camera.view[1] >= -16
    camera.snap(1000, 120, HERO)
    assert camera.view[1] == 0  # no dip when the margin does not need it


def test_a_map_smaller_than_the_view_is_centred_on_its_left_and_bottom():
    camera = FollowCamera(VIEW, (320, 200))
    camera.snap(300, 150)
    assert camera.position == (320, 180)


@pytest.mark.parametrize("bad", [dict(dead_zone=(0.6, 0.1)), dict(margin=-1.0), dict(look_ahead=float("nan")),
                                 dict(smoothing=1.0), dict(below_map=-2.0)])
def test_bad_settings_are_refused_by_name(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        CameraConfig(**bad)

/// The first of two tools whose names differ only after 64 characters.
#[toolwire::tool(name = "a_very_long_tool_name_that_goes_on_and_on_past_the_sixty_four_limit_one")]
fn one() {}

/// The second.
#[toolwire::tool(name = "a_very_long_tool_name_that_goes_on_and_on_past_the_sixty_four_limit_two")]
fn two() {}

fn main() {}

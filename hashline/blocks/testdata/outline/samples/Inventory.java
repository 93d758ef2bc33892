package shop;

import java.util.ArrayList;
import java.util.List;

/**
 * Items in stock, by name.
 */
public class Inventory {
  private final List<Item> items = new ArrayList<>();

  /** An item and how many of it are left. */
  public record Item(String name, int count) {}

  public enum State {
    EMPTY,
    LOW,
    STOCKED;

    boolean orderable() {
      return this != EMPTY;
    }
  }

  public Inventory() {}

  @Override
  public String toString() {
    return "Inventory" + items;
  }

  /**
   * Adds count of name.
   */
  public void add(String name, int count) {
    items.add(new Item(name, count));
  }

  interface Listener {
    void changed(Item item);
  }
}

package com.example.shop;

import java.util.List;

public class Invoice {
    private final List<Item> items;

    public Invoice(List<Item> items) {
        this.items = items;
    }

    public String print(Customer customer) {
        StringBuilder out = new StringBuilder();
        out.append("Invoice for ").append(customer.getName()).append('\n');
        double total = computeTotal();
        out.append("Total: ").append(total * (1 - customer.discount()));
        return out.toString();
    }

    private double computeTotal() {
        double total = 0;
        for (Item item : items) {
            total += item.getPrice() * item.getQuantity();
        }
        return total;
    }
}
